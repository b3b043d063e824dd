import Foundation
import StratusCloud

/// A JSON document that keeps what Foundation's parsers lose: object key order, and whether a
/// number was written as an integer (so an INT64 stays exact and `1.0` stays a double).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for (key, value) in members { hasher.combine(key); hasher.combine(value) }
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A JSON boolean; clients that send `1` and `0` for flags are read as they mean it.
    public var boolValue: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .integer(let value) where value == 0 || value == 1: return value == 1
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// An array whose items are all strings, as those strings.
    public var arrayOfStrings: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }

    /// A short name of the JSON kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
