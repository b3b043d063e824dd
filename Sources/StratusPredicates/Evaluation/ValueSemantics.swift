import StratusModel

/// The comparison rules a query applies to values, in one place so the SQL planner can store
/// exactly the keys these functions compare (see docs/semantics.md).
public enum ValueSemantics {
    /// The key string equality compares: `lowercased()` (Unicode case mapping, no diacritic
    /// folding, no normalization), compared scalar by scalar.
    public static func equalityKey(_ text: String) -> String { text.lowercased() }

    /// Whether two values are equal as `==`, IN and list membership see them: strings
    /// case-insensitively, numbers numerically across INT64 and DOUBLE, dates by millisecond,
    /// references by record name, locations by exact coordinates. Different kinds never match.
    public static func equal(_ a: FieldValue, _ b: FieldValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return equalityKey(x).unicodeScalars.elementsEqual(equalityKey(y).unicodeScalars)
        case (.reference(let x), .reference(let y)):
            return x.recordName.unicodeScalars.elementsEqual(y.recordName.unicodeScalars)
        case (.location(let x), .location(let y)):
            return x.latitude == y.latitude && x.longitude == y.longitude
        default:
            return order(a, b) == 0
        }
    }

    /// The order `<`, `>`, BETWEEN use: strings by Unicode code points of the original text
    /// (case-sensitive; the same order as comparing UTF-8 bytes), numbers numerically and
    /// exactly across INT64 and DOUBLE, dates by millisecond, references by record name.
    /// nil when the values are not comparable (different kinds, NaN, lists, locations).
    public static func order(_ a: FieldValue, _ b: FieldValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return compareScalars(x, y)
        case (.int64(let x), .int64(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : x > y ? 1 : 0
        case (.int64(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .int64(let y)): return compare(y, x).map { -$0 }
        case (.timestamp(let x), .timestamp(let y)):
            let mx = FieldValue.milliseconds(x), my = FieldValue.milliseconds(y)
            return mx < my ? -1 : mx > my ? 1 : 0
        case (.reference(let x), .reference(let y)): return compareScalars(x.recordName, y.recordName)
        default: return nil
        }
    }

    /// Lexicographic order of Unicode scalar values.
    public static func compareScalars(_ a: String, _ b: String) -> Int {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                if x.value != y.value { return x.value < y.value ? -1 : 1 }
            }
        }
    }

    /// An integer against a double, exactly (no rounding of large integers).
    static func compare(_ a: Int64, _ b: Double) -> Int? {
        if b.isNaN { return nil }
        if b >= 9_223_372_036_854_775_808.0 { return -1 }
        if b < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = b.rounded(.towardZero)
        let integer = Int64(whole)
        if a != integer { return a < integer ? -1 : 1 }
        let fraction = b - whole
        return fraction > 0 ? -1 : fraction < 0 ? 1 : 0
    }

    /// BEGINSWITH: a case-sensitive prefix test on Unicode scalars, no normalization.
    public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.unicodeScalars.starts(with: prefix.unicodeScalars)
    }
}
