import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Runs a planned query for one page: reads candidates from the driver index, checks every
/// term on each candidate with the evaluator, orders, and stops after `limit` matches.
///
/// It reads through ``QueryStorage`` and holds CloudKit's rules (visibility, the residual
/// terms, the order of records lacking a sort field, keyset cursors), no SQL.
package struct QueryExecutor {
    let storage: any QueryStorage
    let zoneRowID: Int64
    let type: SchemaCatalog.TypeEntry
    let query: CompiledQuery
    let plan: QueryPlan
    var limit: Int
    /// What is left to check on each candidate once the driver has done its part.
    let residual: QueryFilter
    /// Whether the caller may see a record (nil: every record), from `AccessGate`.
    var visible: ((StoredRecord) throws -> Bool)?
    /// Groups at least this large are walked through the second sort's index, first pages and
    /// deep ones (``walkSecondSort(groupKey:after:)``); tests lower it to walk small groups.
    var walkableGroupSize = QueryExecutor.defaultWalkableGroupSize
    /// The zone and schema as this read sees them: a cursor carrying matches that follow
    /// (``QueryLookahead``) is read under it, and a sorted page's cursor carries some when the
    /// caller sees every record (``stampForListing``). Nil: cursors carry none, and those that
    /// do are read as plain positions.
    var lookaheadStamp: LookaheadStamp?
    /// For an executor streaming from the sort index in place of the plan's selective term
    /// (``sortIndexInstead(at:)``): that term's driver. Every match is among its ids, so the
    /// records lacking the sort field are loaded only when it yields them, not one by one.
    var lackingCandidates: QueryPlan.Driver?
    /// The most ids of ``lackingCandidates`` held to skip records by: beyond that many, most
    /// records lacking the sort field may match anyway.
    static let lackingCandidateLimit = 100_000
    /// Those ids are loaded instead of passing over the type's records when the type has at
    /// least this many records for each of them: loading and decoding a record costs about as
    /// much as the pass spends on 25 (at a million records, 10 µs against 0.35 µs a record).
    /// Tests lower it.
    var candidateShare = 25
    /// Decodes the candidates' fields; they are mostly of one shape.
    private let decoder = FieldDecoder()
    /// The query's order, for matches sorted in memory.
    let order: MatchOrder

    init(storage: any QueryStorage, zoneRowID: Int64, type: SchemaCatalog.TypeEntry, query: CompiledQuery, plan: QueryPlan, limit: Int) {
        self.storage = storage
        self.zoneRowID = zoneRowID
        self.type = type
        self.query = query
        self.plan = plan
        self.limit = limit
        residual = plan.residual(of: query.filter)
        order = MatchOrder(query.sorts)
    }

    /// The page's records and the position to continue from (nil: nothing more matches).
    /// `skippingGroup`: the rest of the position's first-sort group is known to hold no match.
    func run(after position: QueryCursor.Position?, skippingGroup: Bool = false) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        if case .nothing = plan.driver { return ([], nil) }
        if case .sortedLookahead(let values, let id, let lookahead)? = position {
            return try runLookahead(after: (values, id), lookahead)
        }
        if let streaming = try sortIndexInstead(at: position) { return try streaming.run(after: position, skippingGroup: skippingGroup) }
        if plan.isStreaming && plan.driverIsOrdered {
            return plan.groupsTies ? try runGrouped(after: position, skippingGroup: skippingGroup) : try runStreaming(after: position)
        }
        if query.sorts.isEmpty { return try runCollectedByID(after: position) }
        return try runSorted(after: position)
    }

    /// Candidates the selective term may yield before streaming from the sort index pays:
    /// reading them all costs about that many record loads; streaming costs a page divided by
    /// how many of the type's records match.
    var sortIndexThreshold: Int { max(limit * 20, 2_000) }

    /// The executor streaming from the sort field's index, when the plan has one and the term
    /// driving matches too many records to load and sort (or the cursor came from it).
    func sortIndexInstead(at position: QueryCursor.Position?) throws -> QueryExecutor? {
        guard let streaming = plan.streamingFromSortIndex else { return nil }
        switch position {
        case .sorted? where streaming.groupsTies, nil:
            // Grouped streaming and the in-memory sort give one order and one cursor: each
            // page takes whichever is cheaper now.
            guard try storage.countIDs(of: plan.driver, upTo: sortIndexThreshold) >= sortIndexThreshold else { return nil }
        case .sorted?, .sortedLookahead?, .collected?: return nil
        case .streaming?, .lackingSortField?, .lackingLookahead?: break
        }
        var executor = QueryExecutor(storage: storage, zoneRowID: zoneRowID, type: type, query: query, plan: streaming, limit: limit)
        executor.visible = visible
        executor.walkableGroupSize = walkableGroupSize
        executor.candidateShare = candidateShare
        executor.lookaheadStamp = lookaheadStamp
        if case .typeScan = plan.driver {} else { executor.lackingCandidates = plan.driver }
        return executor
    }

    // MARK: - Streaming: the driver's order is the answer's order

    private func runStreaming(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var cursorKey: IndexValue?
        var cursorID: Int64?
        var results: [LoadedRecord] = []
        var last: QueryCursor.Position?
        switch position {
        case nil:
            break
        case .streaming(let key, let id)?:
            if let key {
                guard let indexValue = IndexValue(cursorKey: key) else { throw QueryExecutor.staleCursor }
                cursorKey = indexValue
            }
            cursorID = id
        case .lackingSortField(let modifiedAt, let id)?:
            return try runLackingSortField(after: (modifiedAt, id), results: &results, last: &last)
        case .lackingLookahead(let modifiedAt, let id, let lookahead, let listedThrough)?:
            return try runLackingLookahead(after: (modifiedAt, id), lookahead, listedThrough: listedThrough)
        default:
            throw QueryExecutor.staleCursor
        }
        // Rows are decoded only as they are read, so a generous LIMIT costs nothing unused. With
        // no filter left to apply every row read is a match: the page and the row that says more
        // follow are all it needs (one statement where each is a round trip).
        let chunk = residual.terms.isEmpty && limit < 10_000 ? limit + 1 : max(limit * 4, 256)
        let selection = residual.terms.isEmpty ? nil : PartialRecord.fieldsRead(by: residual, sorts: [])
        var partial = PartialRecord(selection: selection ?? FieldSelection(filter: [], sorts: []))
        // Rows read and matches found so far: which way the next chunk reads.
        var seen = 0, kept = 0
        while true {
            var rowCount = 0
            var done = false
            /// The row at (`key`, `id`), whose record `matched` gives when it matches: added to
            /// the page; false once the page is full and another match follows.
            func take(_ id: Int64, _ key: IndexValue?, _ matched: () throws -> LoadedRecord?) throws -> Bool {
                rowCount += 1
                // A list holding two values with one folded key yields its record twice in a row.
                if id == cursorID { return true }
                cursorKey = key
                cursorID = id
                guard let record = try matched() else { return true }
                kept += 1
                if results.count == limit {
                    done = true
                    return false
                }
                results.append(record)
                last = .streaming(key: key?.cursorKey, id: id)
                return true
            }
            // Once a chunk shows the filter keeping fewer than half the rows, only the filter's
            // fields of each row are read, the record loaded whole when it passes: a filter that
            // keeps few records then costs no whole decode of each it reads. (When most pass,
            // loading them again would cost more than it saves.)
            if let selection, seen >= chunk, kept * 2 < seen {
                try storage.streamFields(of: plan.driver, descending: plan.descending, afterKey: cursorKey, afterID: cursorID, count: chunk,
                                         selecting: selection) { id, key, fields, row in
                    try take(id, key) {
                        try fields.decode(selection.filterFields, into: &partial.values)
                        guard residual.matches(partial) else { return nil }
                        return try row.map(matching) ?? loadMatching(id)
                    }
                }
            } else {
                try streamingRows(afterKey: cursorKey, afterID: cursorID, count: chunk) { id, key, stored in
                    try take(id, key) { try matching(stored) }
                }
            }
            if done { return (results, last) }
            if rowCount < chunk { break }
            seen += rowCount
        }
        guard plan.appendsRecordsLackingSortField != nil else { return (results, nil) }
        return try runLackingSortField(after: nil, results: &results, last: &last)
    }

    /// Hands the driver's next rows after the keyset position to `body`, each with its record
    /// row joined in, until `body` returns false.
    /// `backwards` reads the driver's order from its end (the result's last page first).
    func streamingRows(afterKey: IndexValue?, afterID: Int64?, count: Int, backwards: Bool = false,
                       _ body: (Int64, IndexValue?, StoredRecord) throws -> Bool) throws {
        try storage.streamRows(of: plan.driver, descending: plan.descending, afterKey: afterKey, afterID: afterID,
                               count: count, backwards: backwards, body)
    }

    // MARK: - Collected candidates

    private func runCollectedByID(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var afterID = Int64.min
        if let position {
            guard case .collected(let id) = position else { throw QueryExecutor.staleCursor }
            afterID = id
        }
        let ids = try candidateIDs().filter { $0 > afterID }.sorted()
        var results: [LoadedRecord] = []
        var more = false
        try forEachMatch(of: ids, firstBatch: limit + 1) { _, record in
            if results.count == limit {
                more = true
                return false
            }
            results.append(record)
            return true
        }
        return (results, more ? .collected(id: results.last!.stored.id) : nil)
    }

    private func runSorted(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        let all = try sortedMatches()
        var start = 0
        if let position {
            guard case .sorted(let values, let id) = position, values.count == query.sorts.count else { throw QueryExecutor.staleCursor }
            start = all.firstIndex { precedes(values, id, $0.values, $0.record.stored.id) } ?? all.count
        }
        let page = all[start..<min(start + limit, all.count)]
        guard start + limit < all.count, let last = page.last else { return (page.map(\.record), nil) }
        let following = QueryLookahead.following(all[(start + limit)...].prefix(QueryLookahead.capacity).map(\.record.stored.id),
                                                 stamp: stampForListing, endingGroup: false)
        return (page.map(\.record), .sorted(values: last.values, id: last.record.stored.id, lookahead: following))
    }

    /// Every match with its sort values, in the query's order.
    func sortedMatches() throws -> [(values: [FieldValue?], record: LoadedRecord)] {
        var all: [(values: [FieldValue?], record: LoadedRecord)] = []
        try forEachMatch(of: Array(try candidateIDs()), firstBatch: Self.loadBatchLimit) { _, record in
            all.append((query.sorts.map(record.sortValue), record))
            return true
        }
        return order.sorted(all)
    }

    /// The query's order (``MatchOrder``).
    func precedes(_ a: [FieldValue?], _ aID: Int64, _ b: [FieldValue?], _ bID: Int64) -> Bool {
        order.precedes(a, aID, b, bID)
    }

    /// Every candidate row id the driver yields, each once (or the first `stop` of them).
    func candidateIDs(stoppingAt stop: Int = .max) throws -> Set<Int64> {
        try storage.candidateIDs(of: plan.driver, stoppingAt: stop)
    }

    /// The record with row id `id` when it is of the query's type and zone and matches.
    func loadMatching(_ id: Int64) throws -> LoadedRecord? {
        guard let stored = try storage.record(id: id) else { return nil }
        return try matching(stored)
    }

    func matching(_ stored: StoredRecord) throws -> LoadedRecord? {
        try matching(stored, filter: residual)
    }

    func matching(_ stored: StoredRecord, filter: QueryFilter) throws -> LoadedRecord? {
        guard stored.zoneRowID == zoneRowID, stored.typeID == type.id else { return nil }
        if let visible, try !visible(stored) { return nil }
        let record = LoadedRecord(stored: stored, fields: try stored.fields(using: decoder))
        return filter.terms.isEmpty || filter.matches(record) ? record : nil
    }

    /// The stamp to list matches under: none when the caller sees only some of the records,
    /// since the matches listed would be those they saw, and a right to read gained before the
    /// next page (which moves no zone sequence) would leave out the records it opens.
    var stampForListing: LookaheadStamp? { visible == nil ? lookaheadStamp : nil }

    package static let staleCursor = CloudKitError(.invalidArguments, "The query cursor no longer fits the store's schema; run the query again without a cursor.")
}
