import StratusModel
import StratusCloud

/// The value a QUERYABLE or SORTABLE field element is indexed under in `field_value`: the
/// index value, and whether equality on it ignores case.
package enum IndexKey {
    case integer(Int64)
    case real(Double)
    /// Text; `folds` when equality on it ignores case (strings, not reference names).
    case text(String, folds: Bool)

    /// Nil for element types not indexed in `field_value` (bytes, assets). A location is
    /// indexed under its ``ZOrderCode``, which it shares with its centimetre cell (see
    /// ``isExact(for:)``).
    package init?(_ value: FieldValue) {
        switch value {
        case .location(let location): self = .integer(ZOrderCode.code(location))
        case .string(let text): self = .text(text, folds: true)
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .timestamp(let date): self = .integer(FieldValue.milliseconds(date))
        case .reference(let reference): self = .text(reference.recordName, folds: false)
        default: return nil
        }
    }

    /// Whether the rows equal to a value's key hold exactly the values equal to it, so a query
    /// need not check them again: not for locations, whose key is their cell.
    static func isExact(for base: FieldType.BaseType) -> Bool { base != .location }

    package var value: IndexValue {
        switch self {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text, _): .text(text)
        }
    }

    /// The case-folded key equality and `IN` on strings use (`field_value.folded`).
    package var foldedKey: String? {
        if case .text(let text, true) = self { return CaseFolding.key(text) }
        return nil
    }
}
