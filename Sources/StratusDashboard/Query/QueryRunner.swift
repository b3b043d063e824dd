import Foundation
import StratusEngine
import StratusModel

/// One sort descriptor of a query: a field (or system key such as `modificationDate`) and
/// the direction; with `distanceFrom`, a LOCATION field sorted by its distance from that
/// point (`CKLocationSortDescriptor`), nearest first when ascending.
public struct SortKey: Hashable, Sendable {
    public var key: String
    public var ascending: Bool
    public var distanceFrom: Location?

    public init(key: String, ascending: Bool, distanceFrom: Location? = nil) {
        self.key = key
        self.ascending = ascending
        self.distanceFrom = distanceFrom
    }

    /// How the Query tab's header shows it: `startDate ↓`, `distance from 35.68,139.77 ↑`.
    public var label: String {
        let arrow = ascending ? "↑" : "↓"
        guard let center = distanceFrom else { return "\(key) \(arrow)" }
        return "distance from \(Self.coordinates(center)) \(arrow)"
    }

    /// `35.68,139.77`: the shortest text of each number, no trailing `.0`.
    public static func coordinates(_ location: Location) -> String {
        func text(_ value: Double) -> String {
            let description = "\(value)"
            return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
        }
        return "\(text(location.latitude)),\(text(location.longitude))"
    }
}

/// What the Query tab asks the engine for: `CKQuery` plus the operation's options.
public struct QueryRequest: Hashable, Sendable {
    public var recordType: String
    /// An NSPredicate format string; empty means every record (`TRUEPREDICATE`).
    public var filter: String
    /// Typed arguments for the format's specifiers, as the command line writes them
    /// (`string:red`, `int:5`, `date:2024-05-01T00:00:00Z`, `ref:NAME`, `key:field`).
    public var arguments: [String]
    public var sort: [SortKey]
    /// Fields to return; nil for all.
    public var desiredKeys: [String]?
    public var resultsLimit: Int

    public init(recordType: String, filter: String = "", arguments: [String] = [], sort: [SortKey] = [],
                desiredKeys: [String]? = nil, resultsLimit: Int = 50) {
        self.recordType = recordType
        self.filter = filter
        self.arguments = arguments
        self.sort = sort
        self.desiredKeys = desiredKeys
        self.resultsLimit = resultsLimit
    }
}

/// One page of query results and the cursor for the next page (nil: no more).
public struct QueryPage: Sendable {
    public var records: [Record]
    public var cursor: String?

    public init(records: [Record], cursor: String?) {
        self.records = records
        self.cursor = cursor
    }
}

/// One problem with a filter, placed in the format string.
public struct FilterProblem: Hashable, Sendable {
    public var message: String
    /// Where the problem starts, in Unicode code points from 0; nil when it is not in the text
    /// (the record type, a sort).
    public var offset: Int?
    /// How many code points it covers (at least 1 is underlined).
    public var length: Int

    public init(message: String, offset: Int?, length: Int) {
        self.message = message
        self.offset = offset
        self.length = length
    }
}

/// What checking a filter found: valid with its canonical form and the indexes it uses, or
/// the problems (first one first).
public struct FilterCheck: Hashable, Sendable {
    public var isValid: Bool
    public var canonical: String?
    /// Human-readable index uses, e.g. `title (SORTABLE)`.
    public var indexes: [String]
    public var problems: [FilterProblem]
    /// The same query as a CloudKit Web Services client sends it (`{"recordType", "filterBy"}`),
    /// when it can be said there.
    public var ckws: String?

    public init(isValid: Bool, canonical: String? = nil, indexes: [String] = [], problems: [FilterProblem] = [], ckws: String? = nil) {
        self.isValid = isValid
        self.canonical = canonical
        self.indexes = indexes
        self.problems = problems
        self.ckws = ckws
    }

    public static func valid(canonical: String, indexes: [String] = [], ckws: String? = nil) -> FilterCheck {
        FilterCheck(isValid: true, canonical: canonical, indexes: indexes, ckws: ckws)
    }

    public static func invalid(_ message: String, offset: Int?, length: Int) -> FilterCheck {
        FilterCheck(isValid: false, problems: [FilterProblem(message: message, offset: offset, length: length)])
    }
}

/// Runs queries for the Query tab and checks filters for the filter editor.
///
/// The engine provides the one the dashboard runs with (tests wrap it to record calls). Calls
/// are synchronous: `run` and `next` happen on a background task, `check` on every keystroke
/// of the filter editor (so it must be quick: parse and check, no I/O beyond the schema).
public protocol QueryRunner: Sendable {
    /// The first page of `request`'s results in `zone`.
    func run(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryPage
    /// The page after `cursor` (from a previous page of the same request).
    func next(cursor: String, request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryPage
    /// The last `request.resultsLimit` records of the whole result, in its order, read from its
    /// end (what `G` shows before the result is counted).
    func last(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> [Record]
    /// Parses and checks a filter against the record type's schema and CloudKit's rules.
    func check(filter: String, arguments: [String], recordType: String) -> FilterCheck
}
