import StratusCloud

/// What the Query tab's effects report back: its record counts, pages, the count, map and
/// tail of the whole result, the filter editor's check, and its features' work (histogram,
/// bulk delete).
enum QueryMessage: Sendable {
    /// Records per type in the zone, for the record type the Query tab starts with.
    case recordCounts(job: Int, Result<[String: Int], CloudKitError>)
    /// Records per type in `zone`, counted as the record type picker opened.
    case typeCounts(zone: ZoneID, scope: DatabaseScope, Result<[String: Int], CloudKitError>)
    /// A page of the Query tab's results: `page` is its index, nil for the first page of a
    /// fresh run.
    case page(job: Int, Result<QueryResultsPage, CloudKitError>, page: Int?, milliseconds: Int)
    case filterChecked(generation: Int, FilterCheck)
    case counting(job: Int, countedSoFar: Int)
    /// The Query tab's result walked: records so far, and at the end every page's cursor and size.
    case mapping(job: Int, countedSoFar: Int)
    /// The whole result's size, counted in the indexes before the walk that maps it ends.
    case indexCounted(job: Int, count: Int)
    case tail(job: Int, Result<[Record], CloudKitError>)
    case mapped(job: Int, Result<[ResultPage], CloudKitError>)
    case counted(job: Int, Result<Int, CloudKitError>)
    /// A batch of a bulk delete went: how many so far, and the records of the batch (for undo).
    case bulkDeleteProgress(job: Int, deleted: Int, records: [Record])
    case bulkDeleteFinished(job: Int, Result<Int, CloudKitError>)
    /// A bulk delete stopped by Esc, once the batch under way when Esc came has ended: how many
    /// records it deleted in all.
    case bulkDeleteStopped(job: Int, deleted: Int)
    case histogram(job: Int, Result<ValueHistogram, CloudKitError>)
}
