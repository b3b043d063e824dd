import Foundation
import StratusModel

/// A value for one format specifier, in order: a value for `%@`, `%d`, `%f` ..., or a field
/// name for `%K`.
public enum PredicateArgument: Hashable, Sendable {
    case value(FieldValue)
    /// A field name (or, for error reporting, a dotted key path) for `%K`.
    case key(String)

    public static func string(_ text: String) -> PredicateArgument { .value(.string(text)) }
    public static func int(_ number: Int64) -> PredicateArgument { .value(.int64(number)) }
    public static func double(_ number: Double) -> PredicateArgument { .value(.double(number)) }
    public static func date(_ date: Date) -> PredicateArgument { .value(.timestamp(date)) }
    public static func reference(_ recordName: String) -> PredicateArgument {
        .value(.reference(Reference(recordName: recordName)))
    }
    public static func location(latitude: Double, longitude: Double) -> PredicateArgument {
        .value(.location(Location(latitude: latitude, longitude: longitude)))
    }
}

/// Why a command-line `--arg TYPE:VALUE` could not be read.
public struct PredicateArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
