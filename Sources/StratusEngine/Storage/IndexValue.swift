import StratusModel
import StratusCloud

/// A value as an index holds it (a number or a text), in the engine's words rather than a
/// database's: query plans, keyset positions and cursors speak it, and each storage backend
/// maps it to its own column values.
package enum IndexValue: Hashable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)

    /// A cursor's key back as an index value; nil for a value no index holds (a forged cursor).
    init?(cursorKey: FieldValue) {
        switch cursorKey {
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        default: return nil
        }
    }

    /// How a cursor keeps the key (``QueryCursor/Position/streaming(key:id:)``).
    var cursorKey: FieldValue {
        switch self {
        case .integer(let number): .int64(number)
        case .real(let number): .double(number)
        case .text(let text): .string(text)
        }
    }

    /// The order every index keeps: numbers by value (integers and reals alike), then text by
    /// its UTF-8 bytes; -1, 0 or 1. (An integer beyond 2^53 is compared as the nearest double,
    /// so two values this calls equal may differ; one it puts first is first.)
    package static func order(_ a: IndexValue, _ b: IndexValue) -> Int {
        func number(_ value: IndexValue) -> Double? {
            switch value {
            case .integer(let n): Double(n)
            case .real(let n): n
            case .text: nil
            }
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.text(let x), .text(let y)):
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (.text, _): return 1
        case (_, .text): return -1
        default:
            let x = number(a)!, y = number(b)!
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }
}
