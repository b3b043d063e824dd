import Foundation
import StratusPredicates
import StratusCloud

/// What the Query tab asks the engine for: the engine's ``Query`` and the operation's options.
///
/// The filter as typed and the arguments as the command line writes them (`string:red`,
/// `int:5`, `ref:NAME`) are kept beside the query because `Query` cannot hold them: an empty
/// filter stays empty for the header and the recent filters (the query says `TRUEPREDICATE`),
/// and an argument is parsed only when the query runs, so a bad one is that run's error.
struct QueryRequest: Hashable, Sendable {
    /// The record type, the predicate and the sorts; its arguments are parsed from
    /// `arguments` by ``engineQuery()``.
    let query: Query
    /// An NSPredicate format string as typed; empty means every record.
    let filter: String
    let arguments: [String]
    /// Fields to return; nil for all.
    var desiredKeys: [String]?
    var resultsLimit: Int

    var recordType: String { query.recordType }
    var sort: [QuerySort] { query.sortDescriptors }

    init(recordType: String, filter: String = "", arguments: [String] = [], sort: [QuerySort] = [],
                desiredKeys: [String]? = nil, resultsLimit: Int = 50) {
        let trimmed = filter.trimmingCharacters(in: .whitespaces)
        query = Query(recordType: recordType, predicateFormat: trimmed.isEmpty ? "TRUEPREDICATE" : trimmed, sortDescriptors: sort)
        self.filter = filter
        self.arguments = arguments
        self.desiredKeys = desiredKeys
        self.resultsLimit = resultsLimit
    }

    /// The query with its arguments parsed, as the engine runs it.
    ///
    /// - Throws: `invalidArguments` for an argument that does not parse.
    func engineQuery() throws -> Query {
        var query = query
        do {
            query.arguments = try arguments.map { text throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
        } catch {
            throw CloudKitError(.invalidArguments, error.message)
        }
        return query
    }
}
