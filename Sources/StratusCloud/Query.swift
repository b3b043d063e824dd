import Foundation
import StratusPredicates

/// A query, as `CKQuery` describes one: a record type, a predicate format string with its
/// arguments, and sort descriptors.
public struct Query: Hashable, Sendable {
    public var recordType: String
    /// An NSPredicate format string, checked under CloudKit's rules.
    public var predicateFormat: String
    /// Values for the format specifiers (`%@`, `%K` ...), in order.
    public var arguments: [PredicateArgument]
    public var sortDescriptors: [QuerySort]

    public init(recordType: String, predicateFormat: String = "TRUEPREDICATE",
                arguments: [PredicateArgument] = [], sortDescriptors: [QuerySort] = []) {
        self.recordType = recordType
        self.predicateFormat = predicateFormat
        self.arguments = arguments
        self.sortDescriptors = sortDescriptors
    }
}
