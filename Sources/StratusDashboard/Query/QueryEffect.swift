import StratusCloud
import StratusModel

/// The Query tab's work: its record counts, pages, the count, map and tail of the whole result,
/// the filter editor's check, and its features' work (histogram, bulk delete).
enum QueryEffect: Sendable {
    case recordCounts(job: Int, zone: ZoneID, scope: DatabaseScope)
    /// Records per type in the zone, for the record type picker's counts.
    case typeCounts(zone: ZoneID, scope: DatabaseScope)
    case run(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Page `page` of the results, from `cursor` (nil: the first page again).
    case page(job: Int, page: Int, cursor: String?, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// `learnedTypes`: on a remote, the field types learned from its records (no schema there).
    case checkFilter(generation: Int, filter: String, arguments: [String], recordType: String, learnedTypes: [String: FieldType] = [:])
    /// Counts the records `request` matches (the whole result, without fields).
    case countMatches(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Walks the result of `request` after its first page (without fields), for the match
    /// count and the cursors of its pages.
    case mapResult(job: Int, request: QueryRequest, after: String, firstPageCount: Int, zone: ZoneID, scope: DatabaseScope)
    /// The result's size counted in the indexes (under the walk's job), when they can tell.
    case countFromIndex(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// The result's last page, read from its end.
    case loadTail(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Deletes every record `request` matches, in batches of 400, until cancelled.
    case bulkDelete(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Reads `field` over the result of `request` (up to ``ValueHistogram/sampleLimit`` records).
    case histogram(job: Int, request: QueryRequest, field: String, zone: ZoneID, scope: DatabaseScope)
}
