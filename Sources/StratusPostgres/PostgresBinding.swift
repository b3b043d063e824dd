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
    package func bind(into bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Optional: PostgresBinding where Wrapped: PostgresBinding {
    package func bind(into bindings: inout PostgresBindings) throws {
        switch self {
        case .some(let value): try value.bind(into: &bindings)
        case .none: bindings.appendNull()
        }
    }
}
