import Foundation

/// One cell of a copied table row, in the backend-neutral form `stratus store copy` carries
/// between backends: each backend reads its own column types into these and writes them back
/// into its own, so a row leaves one backend and enters the other unchanged.
package enum CopiedValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes(Data)

    /// This value as a column of `kind` holds it: an integral real read from a backend that
    /// kept it as an integer becomes a real again, so both backends see the same type.
    package func conformed(to kind: CopiedTable.Kind) -> CopiedValue {
        switch (self, kind) {
        case (.integer(let value), .real): return .real(Double(value))
        case (.real(let value), .integer) where value.rounded() == value: return .integer(Int64(value))
        default: return self
        }
    }

    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var bytes: Data? {
        if case .bytes(let value) = self { return value }
        return nil
    }
}
