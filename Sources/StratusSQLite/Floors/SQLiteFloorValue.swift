import Foundation
import GRDB

/// One SQL value handed to or read from a benchmark floor, so that the bench speaks to SQLite
/// through this backend without importing its driver.
package enum SQLiteFloorValue: Sendable, Equatable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
    package init(stringLiteral value: String) { self = .text(value) }

    package var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value)
        default: nil
        }
    }

    package var real: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let string): self = .text(string)
        case .blob(let data): self = .blob(Array(data))
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let string): string.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}

extension [SQLiteFloorValue] {
    var statementArguments: StatementArguments { StatementArguments(map(\.databaseValue)) }
}
