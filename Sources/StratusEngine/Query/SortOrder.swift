import StratusModel
import StratusCloud

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
            // UTF-8 orders bytes as code points order scalars, and compares faster.
            return UTF8Order.compare(a, b).signum()
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
