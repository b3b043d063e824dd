import Foundation

/// A typed field value, one case per CloudKit field type.
///
/// Lists keep their element type so an empty list still knows what it is, and an INT64 stays
/// a 64-bit integer all the way to disk and back.
public enum FieldValue: Hashable, Sendable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// CloudKit keeps timestamps to the millisecond; the engine rounds on save.
    case timestamp(Date)
    case bytes(Data)
    case asset(Asset)
    case reference(Reference)
    /// Boxed: a `Location` is over 100 bytes, and held inline it would make every value that
    /// size, so every record's field dictionary several times larger and slower to build, copy
    /// and free. Boxed, a value is 32 bytes.
    indirect case location(Location)
    /// A homogeneous list of scalar values of `elementType`.
    indirect case list(FieldType.BaseType, [FieldValue])

    /// The field type this value has.
    public var type: FieldType {
        switch self {
        case .string: return .string
        case .int64: return .int64
        case .double: return .double
        case .timestamp: return .timestamp
        case .bytes: return .bytes
        case .asset: return .asset
        case .reference: return .reference
        case .location: return .location
        case .list(let base, _): return .list(base)
        }
    }

    /// The elements of a list, or the value itself as a one-element sequence.
    public var elements: [FieldValue] {
        if case .list(_, let items) = self { return items }
        return [self]
    }

    /// Calls `body` with each of ``elements`` without making an array of a single value
    /// (indexing does this for every field of every record).
    @inlinable
    public func forEachElement(_ body: (FieldValue) throws -> Void) rethrows {
        if case .list(_, let items) = self {
            for item in items { try body(item) }
        } else {
            try body(self)
        }
    }

    /// Milliseconds since 1970 of a date, the unit CloudKit Web Services uses.
    public static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // A date past Int64 milliseconds (±292 million years, as a TIMESTAMP of
        // 9223372036854775807 decodes to) or not a number saturates instead of trapping.
        if value.isNaN { return 0 }
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value < -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }

    /// A date from milliseconds since 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whether ``normalized`` would leave the value as it is; cheaper than comparing with it.
    public var isNormalized: Bool {
        switch self {
        case .timestamp(let date): return FieldValue.date(milliseconds: FieldValue.milliseconds(date)) == date
        case .location(let location):
            guard let time = location.timestamp else { return true }
            return FieldValue.date(milliseconds: FieldValue.milliseconds(time)) == time
        case .list(_, let items): return items.allSatisfy(\.isNormalized)
        default: return true
        }
    }

    /// The value with timestamps rounded to whole milliseconds, as CloudKit stores them.
    public var normalized: FieldValue {
        switch self {
        case .timestamp(let date):
            return .timestamp(FieldValue.date(milliseconds: FieldValue.milliseconds(date)))
        case .location(var location):
            if let time = location.timestamp {
                location.timestamp = FieldValue.date(milliseconds: FieldValue.milliseconds(time))
            }
            return .location(location)
        case .list(let base, let items):
            return .list(base, items.map(\.normalized))
        default:
            return self
        }
    }
}
