import Foundation
import StratusCKWS
import StratusModel

/// The predicate that selects one histogram bar's records: a format with `%@` specifiers and
/// its typed arguments (`int:5`, `date:2024-05-01T00:00:00.000Z`), as the filter editor takes them.
struct BarCondition: Sendable, Equatable {
    var format: String
    var arguments: [String]

    /// `field == value`, or `field CONTAINS value` for a list; nil for a value no filter can name.
    static func equal(_ field: String, to value: FieldValue, isList: Bool) -> BarCondition? {
        guard let argument = argument(value) else { return nil }
        return BarCondition(format: "\(field) \(isList ? "CONTAINS" : "==") %@", arguments: [argument])
    }

    /// `field >= from AND field < to` (`<=` for the last bin).
    static func range(_ field: String, from: FieldValue, to: FieldValue, includingEnd: Bool) -> BarCondition? {
        guard let low = argument(from), let high = argument(to) else { return nil }
        return BarCondition(format: "\(field) >= %@ AND \(field) \(includingEnd ? "<=" : "<") %@", arguments: [low, high])
    }

    /// A value as a typed filter argument, when filters can compare it.
    static func argument(_ value: FieldValue) -> String? {
        switch value {
        case .string(let text): return "string:" + text
        case .int64(let number): return "int:\(number)"
        case .double(let number): return "double:\(number)"
        case .timestamp(let date): return "date:" + ISO8601.string(date)
        case .reference(let reference): return "ref:" + reference.recordName
        default: return nil
        }
    }
}
