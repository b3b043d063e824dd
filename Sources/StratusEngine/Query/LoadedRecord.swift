import Foundation
import StratusModel
import StratusPredicates

/// A stored record with its fields decoded, as the evaluator and the sorter see it.
struct LoadedRecord: FilterableRecord {
    let stored: StoredRecord
    let fields: [String: FieldValue]

    func value(for key: FieldKey) -> FieldValue? {
        switch key {
        case .custom(let name, _): return fields[name]
        case .system(let field):
            switch field {
            case .recordID: return .reference(Reference(recordName: stored.name))
            case .createTime: return .timestamp(FieldValue.date(milliseconds: stored.createdAt))
            case .modTime: return .timestamp(FieldValue.date(milliseconds: stored.modifiedAt))
            case .createdBy: return .reference(Reference(recordName: stored.createdBy))
            case .modifiedBy: return .reference(Reference(recordName: stored.modifiedBy))
            case .etag: return .string(stored.changeTag)
            case .parent: return stored.parent.map { .reference(Reference(recordName: $0)) }
            case .share: return nil
            }
        }
    }

    var customFieldNames: [String] { Array(fields.keys) }

    /// The value a sort term orders by: the field's value, or the distance from a point.
    func sortValue(_ term: SortTerm) -> FieldValue? {
        guard let value = value(for: term.key) else { return nil }
        if let center = term.distanceFrom {
            guard case .location(let location) = value else { return nil }
            return .double(location.distance(to: center))
        }
        return value
    }
}

/// The order of sort values (missing before present; the executor puts records lacking a
/// sort field last in either direction): numbers numerically, strings by code point,
/// dates by time, references by record name.
enum SortOrder {
    static func compare(_ left: FieldValue?, _ right: FieldValue?) -> Int {
        switch (left, right) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let a?, let b?): return compare(a, b)
        }
    }

    static func compare(_ left: FieldValue, _ right: FieldValue) -> Int {
        switch (left, right) {
        case (.string(let a), .string(let b)):
            if a == b { return 0 }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value } ? -1 : 1
        case (.timestamp(let a), .timestamp(let b)):
            return sign(Double(FieldValue.milliseconds(a)), Double(FieldValue.milliseconds(b)))
        case (.reference(let a), .reference(let b)):
            return compare(.string(a.recordName), .string(b.recordName))
        case (.int64(let a), .int64(let b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        default:
            guard let a = number(left), let b = number(right) else { return 0 }
            return sign(a, b)
        }
    }

    private static func number(_ value: FieldValue) -> Double? {
        switch value {
        case .int64(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    private static func sign(_ a: Double, _ b: Double) -> Int { a == b ? 0 : (a < b ? -1 : 1) }
}
