/// The workloads `stratus bench` knows, in the order it runs them.
public enum BenchWorkload: String, CaseIterable, Sendable {
    case save
    case queryEquality = "query-equality"
    case queryRangeSort = "query-range-sort"
    case queryBeginsWith = "query-beginswith"
    case queryTokens = "query-tokens"
    case queryLocation = "query-location"
    case queryList = "query-list"
    case queryAllByModified = "query-all-by-modified"
    /// A filter on one field, the order another's: a token search sorted by rating, a range
    /// sorted by two fields; first page and page 50 through the cursor.
    case queryFilterOtherSort = "query-filter-other-sort"
    /// The last 50 of every venue sorted by rating then title, as the dashboard's `G` reads
    /// them (baseline: SQLite's first 50 in the reverse order, by its rating index).
    case queryTailTwoSorts = "query-tail-two-sorts"
    case cursor10k = "cursor-10k"
    case fetch100 = "fetch-100"
    case playbackAfter10k = "playback-after-10k"
    case playbackAfterAll = "playback-after-all"
    case playbackFull = "playback-full"
    case currentToken = "current-token"
    /// The type's records counted in the indexes, as the dashboard's header counts them
    /// (baseline: SQLite's `count(*)` of the table).
    case countType = "count-type"
    /// The records a range filter matches, counted in its index (baseline: SQLite's `count(*)`
    /// with the same predicate over the column's index).
    case countFiltered = "count-filtered"
    /// Every record out as JSON lines (`stratus export`); the baseline writes the same lines with SQLite's json_object.
    case export
    /// Those lines back into a new store (`stratus save --import`); the baseline inserts the rows
    /// that import wrote into the same tables with SQL alone: the cost of the indexes themselves.
    case `import`
    /// The dashboard on the in-memory terminal: start to the first page of Query results drawn.
    case dashboardFirstPage = "dashboard-first-page"
    /// The dashboard on the in-memory terminal: a key to its frame, over a scripted session.
    case dashboardKey = "dashboard-key"
    /// The dashboard on the in-memory terminal: start, `G` as soon as the first page shows, to
    /// the last record of the whole result drawn (baseline: SQLite's last page by rowid).
    case dashboardLastPage = "dashboard-last-page"
    /// The dashboard: start to the match count of the whole result in the header (baseline:
    /// SQLite's `count(*)` of the zone's rows).
    case dashboardCount = "dashboard-count"
    /// `records/lookup` of 10 records over HTTP on loopback (several clients at once), beside the
    /// same engine call in process.
    case serveLookup = "serve-lookup"
    /// `records/query`, a page of 100, over HTTP beside in process.
    case serveQuery = "serve-query"
    /// `records/modify` saving one record over HTTP beside in process.
    case serveModify = "serve-modify"
    /// `records/modify` saving 200 records (the most a request takes) over HTTP beside in process.
    case serveModify200 = "serve-modify-200"
    /// A `changes/zone` page of 200 records over HTTP beside the engine's page in process.
    case serveChanges = "serve-changes"
    /// `stratus pull` of the bench zone over HTTP on loopback into a new store, beside the same
    /// copy in process (change pages read from the engine, written by the import path).
    case pull
    /// `records/query`, a page of 100, through the StratusRemote client against the store served
    /// in process, beside the same engine call in process (p50 of each).
    case remoteQueryPage = "remote-query-page"
    /// A `changes/zone` page of 200 through the StratusRemote client, beside the engine's page.
    case remotePlayback = "remote-playback"
}
