import Foundation
import StratusModel

/// Compact JSON written piece by piece straight into UTF-8 bytes, commas placed as it goes.
///
/// The server answers with records by the hundred: building a `JSONValue` tree of them and
/// then its text was most of a request's CPU. Strings are escaped on their UTF-8 bytes (copied
/// whole when nothing in them needs it, the usual case) and numbers written without a
/// formatter. `JSONWriter` writes through the same primitives, so both spell values alike.
public struct JSONBytes {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows another in its container and needs a comma.
    private var needsComma = false

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// Ends a document with a newline (a line of JSON lines); the next begins afresh.
    public mutating func newline() { bytes.append(0x0A); needsComma = false }

    /// Forgets what was written, keeping the room it took (the next chunk of an export).
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true); needsComma = false }

    // MARK: - Structure

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// An object's key; the value written next is its value.
    public mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key written from its ``Literal``: one copy of bytes made once.
    public mutating func key(_ name: Literal) {
        separate()
        bytes.append(contentsOf: name.keyBytes)
        needsComma = false
    }

    // MARK: - Values

    /// A string known before the answer is written (a type tag), from its ``Literal``.
    public mutating func string(_ literal: Literal) { separate(); bytes.append(contentsOf: literal.quoted); needsComma = true }

    public mutating func string(_ text: String) { separate(); Self.appendString(text, to: &bytes); needsComma = true }
    public mutating func integer(_ number: Int64) { separate(); Self.appendInteger(number, to: &bytes); needsComma = true }
    /// A DOUBLE as CloudKit writes it (see ``appendDouble(_:to:)``).
    public mutating func double(_ number: Double) { separate(); Self.appendDouble(number, to: &bytes); needsComma = true }
    public mutating func bool(_ flag: Bool) { separate(); bytes.append(contentsOf: (flag ? "true" : "false").utf8); needsComma = true }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }

    /// A whole `JSONValue`, for the parts of an answer that are small trees (an item's error).
    public mutating func value(_ json: JSONValue) {
        switch json {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .integer(let number): integer(number)
        case .number(let number): double(number)
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, item) in members { key(name); value(item) }
            endObject()
        }
    }

    /// `key` and then `json`, for each member.
    public mutating func members(_ members: [(String, JSONValue)]) {
        for (name, item) in members { key(name); value(item) }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// A member name or a string value of the CKWS shape, escaped and quoted once: a page of
    /// 200 records writes `recordName`, `value` and `type` thousands of times.
    public struct Literal: Sendable {
        /// The quoted string.
        let quoted: [UInt8]
        /// The quoted string and its colon, as a key.
        let keyBytes: [UInt8]

        public init(_ text: String) {
            var quoted: [UInt8] = []
            JSONBytes.appendString(text, to: &quoted)
            self.quoted = quoted
            keyBytes = quoted + [UInt8(ascii: ":")]
        }
    }

    // MARK: - Primitives

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A quoted JSON string: `"`, `\` and control characters escaped (`\n`, `\r`, `\t`, others
    /// as `\u00XX`), every other byte as it is, so CJK and emoji stay UTF-8.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { source in
            var start = 0
            for index in source.indices {
                let byte = source[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Decimal digits written from the end of a small stack buffer: no `String` made.
    public static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        if number >= 0, number < 10 {
            out.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// A whole number below 1e15 with one decimal (`5.0`, as CloudKit writes a DOUBLE), any
    /// other in Swift's shortest form that reads back to the same value; a value that is not
    /// finite as Swift prints it (`nan`, `inf`), which the engine never stores.
    public static func appendDouble(_ number: Double, to out: inout [UInt8]) {
        if number.rounded() == number, abs(number) < 1e15 {
            if number == 0, number.sign == .minus { out.append(UInt8(ascii: "-")) }
            appendInteger(Int64(number), to: &out)
            out.append(contentsOf: ".0".utf8)
        } else {
            out.append(contentsOf: number.description.utf8)
        }
    }
}
