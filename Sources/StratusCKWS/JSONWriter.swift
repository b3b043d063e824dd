import Foundation
import StratusCloud

/// Writes `JSONValue` as compact or indented text; keys stay in their order.
///
/// Compact text is written by ``JSONBytes``, indented text through its primitives, so a value
/// reads the same in a response, an export and the Logs tab.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// The text as UTF-8 bytes, for a response body.
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        guard pretty else {
            var writer = JSONBytes(capacity: 256)
            writer.value(value)
            return writer.bytes
        }
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeIndented(value, into: &output, indent: 0)
        return output
    }

    private static func writeIndented(_ value: JSONValue, into output: inout [UInt8], indent: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): JSONBytes.appendInteger(number, to: &output)
        case .number(let number): JSONBytes.appendDouble(number, to: &output)
        case .string(let text): JSONBytes.appendString(text, to: &output)
        case .array(let items):
            if items.isEmpty { output.append(contentsOf: "[]".utf8); return }
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                writeIndented(item, into: &output, indent: indent + 1)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { output.append(contentsOf: "{}".utf8); return }
            output.append(UInt8(ascii: "{"))
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                JSONBytes.appendString(key, to: &output)
                output.append(contentsOf: ": ".utf8)
                writeIndented(item, into: &output, indent: indent + 1)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}
