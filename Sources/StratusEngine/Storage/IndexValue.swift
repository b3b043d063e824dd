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
}
