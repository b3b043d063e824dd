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
    case location(Location)
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

    /// Milliseconds since 1970 of a date, the unit CloudKit Web Services uses.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// A date from milliseconds since 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
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
