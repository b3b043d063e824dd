import Foundation
import StratusCKWS
import Testing

/// The writer's text, byte for byte: what clients parse and what tests of every answer compare.
@Suite struct JSONWriterTests {
    @Test func stringsAreEscapedExactlyWhereJSONNeedsIt() {
        let text = "a\"b\\c\nd\re\tf\u{01}g\u{1f}h 東京 🗼 é/"
        #expect(JSONWriter.string(.string(text)) == #""a\"b\\c\nd\re\tf\u0001g\u001fh 東京 🗼 é/""#)
        #expect(JSONWriter.string(.string("")) == #""""#)
        #expect(JSONWriter.string(.string("plain")) == #""plain""#)
        #expect(JSONWriter.string(.object([("k\"ey", .string("\\"))])) == #"{"k\"ey":"\\"}"#)
    }

    /// A key or string made once as a literal writes the same bytes as one written each time,
    /// escapes and commas included.
    @Test func literalsWriteWhatTheirStringsWould() {
        var fromStrings = JSONBytes(), fromLiterals = JSONBytes()
        let texts = ["recordName", "k\"ey", "東京 🗼", ""]
        fromStrings.beginObject()
        fromLiterals.beginObject()
        for text in texts {
            fromStrings.key(text)
            fromStrings.string(text)
            fromLiterals.key(JSONBytes.Literal(text))
            fromLiterals.string(JSONBytes.Literal(text))
        }
        fromStrings.endObject()
        fromLiterals.endObject()
        #expect(fromLiterals.bytes == fromStrings.bytes)
        #expect(String(decoding: fromLiterals.bytes, as: UTF8.self) == #"{"recordName":"recordName","k\"ey":"k\"ey","東京 🗼":"東京 🗼","":""}"#)
    }

    @Test func numbersKeepCloudKitsForms() {
        #expect(JSONWriter.string(.number(5)) == "5.0")
        #expect(JSONWriter.string(.number(-5)) == "-5.0")
        #expect(JSONWriter.string(.number(-0.0)) == "-0.0")
        #expect(JSONWriter.string(.number(0)) == "0.0")
        #expect(JSONWriter.string(.number(2.5)) == "2.5")
        #expect(JSONWriter.string(.number(1e15)) == "1000000000000000.0")
        #expect(JSONWriter.string(.number(1e300)) == "1e+300")
        #expect(JSONWriter.string(.number(123456789012345)) == "123456789012345.0")
        #expect(JSONWriter.string(.integer(-42)) == "-42")
        #expect(JSONWriter.string(.array([.null, .bool(true), .bool(false)])) == "[null,true,false]")
    }

    @Test func prettyTextIndentsByTwoAndBytesMatchTheString() {
        let value = JSONValue.object([("a", .array([.integer(1), .object([])])), ("b", .array([]))])
        #expect(JSONWriter.string(value, pretty: true) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
        #expect(JSONWriter.bytes(value) == Array(JSONWriter.string(value).utf8))
        #expect(String(decoding: JSONWriter.bytes(.string("旅行 ✈️")), as: UTF8.self) == "\"旅行 ✈️\"")
    }
}
