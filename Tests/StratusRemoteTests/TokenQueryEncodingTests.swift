import Foundation
import StratusModel
@testable import StratusRemote
import Testing

/// Tokens travel in a request's query string: every byte but the unreserved ones is
/// percent-encoded (a `+` left as it is would read back as a space), as Foundation encodes them.
@Suite struct TokenQueryEncodingTests {
    @Test func everyByteButTheUnreservedIsEncoded() {
        #expect(CKWSClient.encoded("a+b/c=d é~_.-Z9") == "a%2Bb%2Fc%3Dd%20%C3%A9~_.-Z9")
        #expect(CKWSClient.encoded("") == "")
        #expect(CKWSClient.encoded("%&?#") == "%25%26%3F%23")
    }

    @Test func itEncodesAsFoundationDoes() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var generator = SeededGenerator(seed: 17)
        let alphabet = Array("AZaz09+/=-_.~ %&?#é😀\u{7F}\u{01}")
        for _ in 0..<500 {
            let text = String((0..<generator.below(41)).map { _ in alphabet[generator.below(alphabet.count)] })
            #expect(CKWSClient.encoded(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text)")
        }
    }
}
