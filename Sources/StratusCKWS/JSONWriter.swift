import Foundation
import StratusCloud

/// Writes `JSONValue` as compact or indented text; keys stay in their order.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        var output = ""
        write(value, into: &output, pretty: pretty, indent: 0)
        return output
    }

    private static func write(_ value: JSONValue, into output: inout String, pretty: Bool, indent: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                output += String(format: "%.1f", number)
            } else {
                output += "\(number)"
            }
        case .string(let text): quote(text, into: &output)
        case .array(let items):
            if items.isEmpty { output += "[]"; return }
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{"
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                quote(key, into: &output)
                output += pretty ? ": " : ":"
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += String(format: "\\u%04x", scalar.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
