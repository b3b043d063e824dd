import Foundation
import StratusEngine

/// An index value as the `field_value` table holds it, in columns that order exactly as SQLite
/// orders one column of mixed values: `is_text` puts every number before every text; numbers
/// share one exact `numeric` column, so an integer and a real compare by value (SQLite compares
/// them exactly, without rounding either); text is `COLLATE "C"`, by bytes, as SQLite's BINARY.
/// The unused column holds a constant (0 or ''), so the whole key is never NULL and a keyset
/// position is one row comparison PostgreSQL reads straight off the index.
struct PostgresIndexColumns: Equatable {
    var isText: Bool
    /// A `numeric` literal: exact, and read back as the very value written.
    var number: String
    var text: String
    /// The number was a REAL (`1.0`, not `1`): so it reads back as one.
    var isReal: Bool

    /// Nil for NaN, which SQLite does not index either (it holds NaN as NULL, which the index refuses).
    init?(_ value: IndexValue) {
        switch value {
        case .integer(let number):
            self.init(isText: false, number: String(number), text: "", isReal: false)
        case .real(let number):
            guard let literal = Self.literal(number) else { return nil }
            self.init(isText: false, number: literal, text: "", isReal: true)
        case .text(let text):
            self.init(isText: true, number: "0", text: text, isReal: false)
        }
    }

    private init(isText: Bool, number: String, text: String, isReal: Bool) {
        self.isText = isText
        self.number = number
        self.text = text
        self.isReal = isReal
    }

    /// The value back from the columns as selected by ``selected(_:)``.
    static func value(isText: Bool, number: String, text: String, isReal: Bool) -> IndexValue? {
        if isText { return .text(text) }
        if isReal { return Double(number).map(IndexValue.real) }
        return Int64(number).map(IndexValue.integer)
    }

    /// The key columns in order, with `number` read as text (exact, whatever its size).
    static func selected(_ alias: String) -> String {
        "\(alias).is_text, \(alias).number::text, \(alias).text, \(alias).is_real"
    }

    /// The row comparison's left side: the key columns, then the record id when `withID`.
    static func key(_ alias: String, withID: Bool) -> String {
        "(\(alias).is_text, \(alias).number, \(alias).text\(withID ? ", \(alias).record_id" : ""))"
    }

    /// A double as an exact `numeric` literal. A whole double in the integer range is written
    /// as that integer, digit for digit (Swift's shortest form of 2^60 is `1.152921504606847e18`,
    /// which is not 2^60 and would misorder it against integers near it); any other finite
    /// double as its shortest round-trip form, which orders as the double among integers too:
    /// no integer lies between a fractional double and its shortest form.
    static func literal(_ number: Double) -> String? {
        if number.isNaN { return nil }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == number.rounded(), abs(number) < 9.2e18 { return String(Int64(number)) }
        return "\(number)"
    }
}
