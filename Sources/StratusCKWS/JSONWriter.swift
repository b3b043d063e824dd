import Foundation
import StratusCloud

/// Writes `JSONValue` as compact or indented text; keys stay in their order.
///
/// It writes UTF-8 bytes, and copies a string's bytes whole when nothing in it needs escaping
/// (the usual case): the server answers every request through here, and appending a `String`
/// scalar by scalar was most of its time under load.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// The text as UTF-8 bytes, for a response body.
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output, pretty: pretty, indent: 0)
        return output
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .integer(let number): append(String(number), to: &output)
        case .number(let number): append(text(of: number), to: &output)
        case .string(let text): quote(text, into: &output)
        case .array(let items):
            if items.isEmpty { append("[]", to: &output); return }
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1, into: &output) }
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent, into: &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { append("{}", to: &output); return }
            output.append(UInt8(ascii: "{"))
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1, into: &output) }
                quote(key, into: &output)
                append(pretty ? ": " : ":", to: &output)
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent, into: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A whole number with one decimal (`5.0`, as CloudKit writes a DOUBLE), any other in
    /// Swift's shortest form that reads back to the same value.
    static func text(of number: Double) -> String {
        guard number.rounded() == number, abs(number) < 1e15 else { return "\(number)" }
        let whole = String(Int64(number)) + ".0"
        return number == 0 && number.sign == .minus ? "-" + whole : whole
    }

    private static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    private static func newline(_ indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func quote(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                switch byte {
                case UInt8(ascii: "\""): append("\\\"", to: &output)
                case UInt8(ascii: "\\"): append("\\\\", to: &output)
                case UInt8(ascii: "\n"): append("\\n", to: &output)
                case UInt8(ascii: "\r"): append("\\r", to: &output)
                case UInt8(ascii: "\t"): append("\\t", to: &output)
                default:
                    let digits = String(byte, radix: 16)
                    append("\\u" + String(repeating: "0", count: 4 - digits.count) + digits, to: &output)
                }
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
