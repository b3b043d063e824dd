import Foundation
import Testing
import StratusModel
@testable import StratusCKWS

/// The one JSON parser: integers read straight from their digits and the CKWS record shape's
/// member names and type tags taken from a table must give exactly what the general path gives.
@Suite struct JSONParserTests {
    @Test(arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("7", .integer(7)), ("-42", .integer(-42)),
        ("999999999999999999", .integer(999_999_999_999_999_999)), ("-999999999999999999", .integer(-999_999_999_999_999_999)),
        ("1599463008000", .integer(1_599_463_008_000)),
        // Past 18 digits the general path decides: exact at Int64's ends, a double beyond them.
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)), ("-12345678901234567890", .number(-1.2345678901234567e19)),
        ("1.5", .number(1.5)), ("-0.0", .number(-0.0)), ("1e3", .number(1000)), ("2E-2", .number(0.02)), ("10.0", .number(10)),
    ])
    func numbers(_ text: String, _ expected: JSONValue) throws {
        let parsed = try JSONParser.parse(text)
        #expect(parsed == expected)
        // `==` takes -0.0 for 0.0: the sign is compared apart.
        if case .number(let a) = parsed, case .number(let b) = expected { #expect(a.sign == b.sign) }
        #expect(try JSONParser.parse("[\(text)]") == .array([expected]))
    }

    @Test func knownNamesAndTagsAreTheStringsTheySpell() throws {
        let text = #"{"value": "STRING_LIST", "type": "TIMESTAMP", "val\u0075e": "valu", "recordChangeTag": "recordChangeTags", "__defaultOwner__": "REFERENCE"}"#
        let parsed = try JSONParser.parse(text)
        guard case .object(let members) = parsed else { Issue.record("not an object"); return }
        #expect(members.map(\.0) == ["value", "type", "value", "recordChangeTag", "__defaultOwner__"])
        #expect(members.map(\.1) == [.string("STRING_LIST"), .string("TIMESTAMP"), .string("valu"), .string("recordChangeTags"), .string("REFERENCE")])
    }

    /// Known strings are told apart by their first sixteen bytes packed into two numbers, the
    /// rest compared byte by byte: words that differ only past the sixteenth byte, in the last
    /// byte, or by one byte more or less are themselves, at the end of the input (where fewer
    /// than sixteen bytes follow) and inside it.
    @Test func stringsCloseToKnownOnesAreThemselves() throws {
        let words = ["REGULAR_CUSTOM_ZONE", "REGULAR_CUSTOM_ZONF", "REGULAR_CUSTOM_ZON", "REGULAR_CUSTOM_ZONES", "__defaultOwner__",
                     "__defaultOwner_", "__defaultOwnerX_", "STRING_LIST", "STRING_LISU", "DELETE_SELF", "DELETE_SELG", "v", "e", ""]
        for word in words {
            #expect(try JSONParser.parse("\"\(word)\"") == .string(word), "\(word), at the end")
            #expect(try JSONParser.parse("[\"\(word)\", \"and some more text after it\"]") == .array([.string(word), .string("and some more text after it")]),
                    "\(word), inside")
            #expect(try JSONParser.parse("{\"\(word)\": 1}") == .object([(word, .integer(1))]), "\(word), as a name")
        }
    }

    /// Decimals the parser reads without `strtod` (digits below 2^53, a power of ten within 22)
    /// are the very doubles `Double(String)` reads, bit for bit, sign of zero included; the
    /// others go to `Double(String)` itself. Random decimals of every length and exponent,
    /// and the edges of the fast path.
    @Test func decimalsAreReadAsStrtodReadsThem() throws {
        var generator = SeededGenerator(seed: 41)
        var texts = ["0.1", "-0.0", "0.0", "1e22", "1e23", "-1E+22", "9007199254740991.0", "9007199254740993.0", "900719925474099.3",
                     "123456789012345678.0", "0.000000000000000000001", "1e-22", "1e-23", "44.87641", "-75.96074999999999", "4.35e-5",
                     "0.30000000000000004", "5e-324", "1.7976931348623157e308", "0.5e1"]
        for _ in 0..<4000 {
            var text = generator.below(2) == 0 ? "-" : ""
            text += String(generator.below(1_000_000_000)) + "." + String(repeating: "0", count: generator.below(4))
                + String(generator.below(Int(Int32.max)))
            if generator.below(3) == 0 { text += ["e", "E", "e-", "E+", "e+"][generator.below(5)] + String(generator.below(30)) }
            texts.append(text)
        }
        for text in texts {
            guard let expected = Double(text) else { Issue.record("\(text) is not a number"); continue }
            guard case .number(let parsed) = try JSONParser.parse(text) else { Issue.record("\(text) is not read as a double"); continue }
            #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) against \(expected)")
        }
    }

    /// Every member name and type tag is found in the table, as a string and as a word
    /// (``JSONParser/readKnownWord()``), and a string that is not one is no word.
    @Test func everyKnownWordIsFoundByItsBytes() throws {
        for (number, word) in JSONParser.knownWords.enumerated() {
            let bytes = Array("\"\(word)\" ".utf8)
            let found = bytes.withUnsafeBufferPointer { buffer in JSONParser.read(buffer) { (parser: inout JSONParser) in parser.readKnownWord() } }
            #expect(found == number, "\(word)")
            #expect(JSONParser.knownText(number) == word)
            #expect(try JSONParser.parse("\"\(word)\"") == .string(word))
        }
        for other in ["category", "valuE", "STRING_LIS", "", "REGULAR_CUSTOM_ZONF", "esc\\u0061ped"] {
            let bytes = Array("\"\(other)\"".utf8)
            #expect(bytes.withUnsafeBufferPointer { buffer in JSONParser.read(buffer) { (parser: inout JSONParser) in parser.readKnownWord() } } == nil, "\(other)")
        }
    }

    /// The eight-at-a-time scan stops where a byte-by-byte one does: at the first quote,
    /// backslash or control character, wherever it falls in a word and whatever bytes (high
    /// ones, other stops) follow it; at the end when there is none.
    @Test func plainRunsEndWhereAByteByByteScanEnds() {
        var generator = SeededGenerator(seed: 41)
        let alphabet: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0x9F, 0xA0, 0xDF, 0xFF, 0x41, 0x61, 0x01, 0x02]
        for _ in 0..<4_000 {
            let length = generator.below(40)
            // Mostly letters, so stops fall at every offset of a word.
            let bytes: [UInt8] = (0..<length).map { _ in generator.below(6) == 0 ? alphabet[generator.below(alphabet.count)] : UInt8(0x61 + generator.below(26)) }
            let start = length == 0 ? 0 : generator.below(length + 1)
            var expected = start
            while expected < bytes.count, bytes[expected] != 0x22, bytes[expected] != 0x5C, bytes[expected] >= 0x20 { expected += 1 }
            let found = bytes.withUnsafeBufferPointer { JSONParser.plainRunEnd($0, from: start) }
            #expect(found == expected, "\(bytes) from \(start)")
        }
    }

    /// Random documents written by the one writer read back as themselves.
    @Test func randomDocumentsSurviveARoundTrip() throws {
        var generator = SeededGenerator(seed: 23)
        let words = ["value", "type", "fields", "STRING", "INT64_LIST", "Café", "東京", "a\"b", "tab\there", "line\nbreak", "", "👍🏽", "x\u{1}y",
                     "recordName", "recordNames", "valu"]
        func document(_ depth: Int) -> JSONValue {
            switch generator.below(depth > 3 ? 4 : 7) {
            case 0: return .string(words[generator.below(words.count)])
            case 1: return .integer(Int64(generator.below(2_000_000_000)) * Int64(generator.below(4_000_000_000)) - 4_000_000_000_000_000_000)
            case 2: return .number(Double(generator.below(1_000_000)) / 64 - 5_000)
            case 3: return [JSONValue.null, .bool(true), .bool(false)][generator.below(3)]
            case 4, 5: return .object((0..<generator.below(6)).map { _ in (words[generator.below(words.count)], document(depth + 1)) })
            default: return .array((0..<generator.below(5)).map { _ in document(depth + 1) })
            }
        }
        for _ in 0..<300 {
            let value = document(0)
            #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
            #expect(try JSONParser.parse(utf8: Array(JSONWriter.string(value, pretty: true).utf8)) == value)
        }
    }

    /// The parser reads its input through a pointer: a slice of a larger buffer (a line of a
    /// file) is read in place, and bytes that are not contiguous are copied first. Either way
    /// the answer, and where an error is said to be, are the same.
    @Test func slicesAndNonContiguousBytesParseAlike() throws {
        let line = #"{"recordName": "r1", "fields": {"title": {"value": "Caf\u00e9 \"Zeta\"", "type": "STRING"}}}"#
        let buffer = Array(("junk\n" + line + "\nmore").utf8)
        let start = 5, end = 5 + line.utf8.count
        let expected = try JSONParser.parse(line)
        #expect(expected["fields"]?["title"]?["value"] == .string("Café \"Zeta\""))
        #expect(try JSONParser.parse(utf8: buffer[start..<end]) == expected)
        #expect(try JSONParser.parse(utf8: buffer[start..<end].lazy.map { $0 }) == expected)
        let broken = Array(#"{"a": [1, 2,, 3]}"#.utf8)
        let contiguous = #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(utf8: broken) }
        let copied = #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(utf8: broken.lazy.map { $0 }) }
        #expect(contiguous == copied)
        #expect(contiguous.map { [$0.line, $0.column] } == [1, 13])
        // A broken line inside a larger buffer, as a slice of an array and of `Data` (a request
        // body): the error is placed within the line, not the buffer.
        let withBroken = Array(("{\"x\": 1}\n" + #"{"a": [1, 2,, 3]}"# + "\n").utf8)
        let lineStart = 9, lineEnd = withBroken.count - 1
        let inArray = #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(utf8: withBroken[lineStart..<lineEnd]) }
        let inData = #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(utf8: Data(withBroken)[lineStart..<lineEnd]) }
        #expect(inArray == contiguous)
        #expect(inData == contiguous)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(utf8: [UInt8]()) }
    }
}
