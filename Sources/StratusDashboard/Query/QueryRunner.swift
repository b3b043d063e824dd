import Foundation
import StratusModel
import StratusCloud

/// One problem with a filter, placed in the format string.
struct FilterProblem: Hashable, Sendable {
    var message: String
    /// Where the problem starts, in Unicode code points from 0; nil when it is not in the text
    /// (the record type, a sort).
    var offset: Int?
    /// How many code points it covers (at least 1 is underlined).
    var length: Int

    init(message: String, offset: Int?, length: Int) {
        self.message = message
        self.offset = offset
        self.length = length
    }
}

/// What checking a filter found: valid with its canonical form and the indexes it uses, or
/// the problems (first one first).
struct FilterCheck: Hashable, Sendable {
    var isValid: Bool
    var canonical: String?
    /// Human-readable index uses, e.g. `title (SORTABLE)`.
    var indexes: [String]
    var problems: [FilterProblem]
    /// The same query as a CloudKit Web Services client sends it (`{"recordType", "filterBy"}`),
    /// when it can be said there.
    var ckws: String?

    init(isValid: Bool, canonical: String? = nil, indexes: [String] = [], problems: [FilterProblem] = [], ckws: String? = nil) {
        self.isValid = isValid
        self.canonical = canonical
        self.indexes = indexes
        self.problems = problems
        self.ckws = ckws
    }

    static func valid(canonical: String, indexes: [String] = [], ckws: String? = nil) -> FilterCheck {
        FilterCheck(isValid: true, canonical: canonical, indexes: indexes, ckws: ckws)
    }

    static func invalid(_ message: String, offset: Int?, length: Int) -> FilterCheck {
        FilterCheck(isValid: false, problems: [FilterProblem(message: message, offset: offset, length: length)])
    }
}

/// Runs queries for the Query tab and checks filters for the filter editor.
///
/// The engine provides the one the dashboard runs with (tests wrap it to record calls). Calls
/// are synchronous: `run` and `next` happen on a background task, `check` on every keystroke
/// of the filter editor (so it must be quick: parse and check, no I/O beyond the schema).
protocol QueryRunner: Sendable {
    /// The first page of `request`'s results in `zone`.
    func run(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage
    /// The page after `cursor` (from a previous page of the same request).
    func next(cursor: String, request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage
    /// The last `request.resultsLimit` records of the whole result, in its order, read from its
    /// end (what `G` shows before the result is counted).
    func last(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> [Record]
    /// How many records `request` matches when the container counts them without reading them
    /// (an index answers the whole filter); nil when only walking the result can tell.
    func count(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> Int?
    /// Parses and checks a filter against the record type's schema and CloudKit's rules; on a
    /// remote, which has no schema to read, against `learnedTypes`, the field types its records
    /// showed (empty on a local store).
    func check(filter: String, arguments: [String], recordType: String, learnedTypes: [String: FieldType]) -> FilterCheck
}
