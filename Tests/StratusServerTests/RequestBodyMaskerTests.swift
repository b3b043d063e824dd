import Foundation
@testable import StratusServer
import StratusCKWS
import Testing

/// What the request log keeps of a body: indented JSON, credentials masked, any text a client
/// sends handled without failing.
@Suite struct RequestBodyMaskerTests {
    @Test func urlsLoseTheirTokensAndTickets() {
        #expect(RequestBodyMasker.maskedURL("http://h/assets/upload/T1CK3T", endsInSecret: true) == "http://h/assets/upload/••••")
        #expect(RequestBodyMasker.maskedURL("https://h/a?ckAPIToken=abc&x=1&ckSession=s+p", endsInSecret: false) == "https://h/a?ckAPIToken=••••&x=1&ckSession=••••")
        #expect(RequestBodyMasker.maskedURL("http://h/東京 🥐/%%%?=&&token", endsInSecret: true) == "http://h/東京 🥐/••••?=&&token")
        #expect(RequestBodyMasker.maskedURL("mailto://", endsInSecret: true) == "mailto://")
    }

    @Test func secretMembersAreMaskedWhereverTheyAre() throws {
        let json = try JSONParser.parse(utf8: Array(#"{"a": [{"apnsToken": "SECRET", "webcourierURL": "http://h/push/c/e/SECRET2"}], "title": "東京 ://"}"#.utf8))
        let text = RequestBodyMasker.text(of: json)
        #expect(!text.contains("SECRET"))
        #expect(text.contains("\"title\": \"東京 ://\""))
        #expect(text.contains("\"webcourierURL\": \"http://h/push/c/e/••••\""))
    }

    @Test func otherTextIsKeptAsItCameAndLongTextIsCut() {
        #expect(RequestBodyMasker.text(ofBody: Data("{not json".utf8)) == "(not JSON) {not json")
        #expect(RequestBodyMasker.text(ofBody: Data(" \n".utf8)) == "")
        #expect(RequestBodyMasker.text(ofBody: Data([0xFF, 0xFE, 0x7B])).hasPrefix("(not JSON) "))
        let long = String(repeating: "é", count: RequestBodyMasker.maximumCharacters + 10)
        #expect(RequestBodyMasker.cut(long).hasSuffix("… (10 more characters not kept)"))
    }
}
