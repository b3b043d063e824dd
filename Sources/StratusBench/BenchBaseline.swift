import Foundation

/// The same venues in tables a person would design by hand for the bench's workloads, in the
/// database the Stratus store is measured on: plain SQLite beside a file store, PostgreSQL
/// itself beside a PostgreSQL store. Each workload asks it in words (``BaselineRead``,
/// ``BaselinePage``, ``BaselineCount``) and each baseline writes its own SQL.
protocol BenchBaseline: AnyObject {
    /// The database, for the report's column ("SQLite", "PostgreSQL").
    var name: String { get }
    /// How many venues it holds.
    var count: Int { get throws }
    /// Inserts one batch in one transaction, as the Stratus side saves batches of 400.
    func insert(_ venues: [BenchVenue], modified: Int64) throws
    /// Writes every venue as a JSON line in the CloudKit Web Services shape, built by the
    /// database's own JSON functions: the baseline of `export`.
    func exportLines(to file: URL) throws
    /// The rows `read` returns as one CKWS answer (`{"records": [...]}`), built by the
    /// database's own JSON functions: less the plain read, what writing an answer must cost.
    func answer(_ read: BaselineRead) throws -> String
    /// Reads every column of each row `read` returns, as a client would; returns how many.
    func rows(_ read: BaselineRead) throws -> Int
    /// Counts with `count(*)`.
    func count(_ filter: BaselineCount) throws -> Int
    /// One keyset page of 100 after the row whose sort keys are `after` (nil: the first page):
    /// how many rows, and the last row's keys when `keys` asks for them.
    func page(_ page: BaselinePage, after: [BenchValue]?, keys: Bool) throws -> (rows: Int, last: [BenchValue]?)
    /// What the bench remembered of the stores it built (nil: nothing yet).
    func savedSidecar() -> BenchSidecar?
    /// Remembers `sidecar` with the stores.
    func keep(_ sidecar: BenchSidecar) throws
    /// Brings the planner's statistics of the baseline's tables up to date once they are
    /// filled, as the store's are (``Store/gatherPlannerStatistics()``).
    func gatherPlannerStatistics() throws
}

/// A value a baseline query is bound to, or a keyset page resumes from.
enum BenchValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A read workload's question, in words.
enum BaselineRead {
    /// `category == NAME`, the first 100 by id (`query-equality`).
    case category(String)
    /// `rating >= VALUE` by rating, descending (`query-range-sort`).
    case ratingAtLeastDescending(Double)
    /// `title BEGINSWITH PREFIX` by title (`query-begins-with`).
    case titlePrefix(String)
    /// A word in title, category or description (`query-tokens`).
    case word(String)
    /// Within `kilometres` of a point (`query-location`).
    case near(latitude: Double, longitude: Double, kilometres: Double)
    /// `tags CONTAINS TAG` (`query-list`).
    case tag(String)
    /// Every venue by modification time (`query-all-by-modified`).
    case byModified
    /// The last `limit` by rating descending then title (`query-tail-two-sorts`).
    case tailByRatingThenTitle(limit: Int)
    /// The venues with these record names (`fetch-100`).
    case names([String])
    /// The changes after a sequence (`playback-*`).
    case changes(afterSequence: Int64, limit: Int)
    /// Every venue (`playback-full`).
    case everything
    /// The newest sequence (`current-token`).
    case newestSequence
    /// The newest `limit` rows (`dashboard-last-page`).
    case newestPage(limit: Int)
}

/// A workload read page by page, resuming after the last row's sort keys.
enum BaselinePage {
    /// `price >= VALUE` by price (`cursor-10k`); keys price, id.
    case priceAtLeast(Int64)
    /// A word, by rating (`query-filter-other-sort`); keys rating, id.
    case wordByRating(String)
    /// `price > VALUE` by rating then title (`query-filter-other-sort`); keys rating, title, id.
    case priceAboveByRatingThenTitle(Int64)
}

/// What a count workload counts.
enum BaselineCount {
    case all
    case ratingAtLeast(Double)
}
