import Foundation
import PostgresNIO

/// A value bound to a statement's `$n`: the few Swift types the tables use, and nil.
package protocol PostgresBinding {
    func bind(into bindings: inout PostgresBindings) throws
}

extension Int64: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Int: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(Int64(self)) }
}

extension String: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Double: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Bool: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Data: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws { try bindings.append(self) }
}

extension Array: PostgresBinding where Element: PostgresArrayEncodable & PostgresNonThrowingEncodable {
    /// Arrays of the tables' element types are encoded by code specialized for them: the
    /// generic encoder reaches each element through witness tables, which made encoding a
    /// save's index columns (tens of thousands of elements) a third of the save's own CPU time
    /// (`perf`); specialized, it is a fifth.
    package func bind(into bindings: inout PostgresBindings) throws {
        if Element.self == Int64.self {
            bindings.append(unsafeBitCast(self, to: [Int64].self))
        } else if Element.self == String.self {
            bindings.append(unsafeBitCast(self, to: [String].self))
        } else if Element.self == Bool.self {
            bindings.append(unsafeBitCast(self, to: [Bool].self))
        } else {
            bindings.append(self)
        }
    }
}

extension Optional: PostgresBinding where Wrapped: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws {
        switch self {
        case .some(let value): try value.bind(into: &bindings)
        case .none: bindings.appendNull()
        }
    }
}
