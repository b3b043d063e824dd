import StratusModel
import StratusPredicates
import StratusCloud

/// The records lacking the sort field, which end a sorted answer (in modification order, after
/// every record that has it): how a page finds them, whichever is cheapest.
///
/// - The filter's own term yields few records (the page streams from the sort index in its
///   place): those are loaded, and the ones lacking the field put in order.
/// - Few of the type's records lack the field (under a tenth, counted in indexes): one pass
///   over the type's records in modification order skips those the field's index holds.
/// - Otherwise records are loaded in modification order until a page of them is found.
///
/// When the first two found them all, the page's cursor lists those that follow
/// (`lackingLookahead`), so the next pages load them by id.
extension QueryExecutor {
    /// The second phase of a sort-index driver: records without the sort field, in modification
    /// order. When the walk found them all at once (the filter's candidates loaded, or one pass
    /// over the indexes), the cursor carries those that follow the page (``QueryLookahead``), so
    /// the next pages load them by id instead of searching again.
    /// `fewLack`: a list made under the zone's current stamp has run out; the records were found
    /// all at once when it was made, so a pass needs no count first.
    func runLackingSortField(after start: (Int64, Int64)?, fewLack: Bool = false, results: inout [LoadedRecord],
                             last: inout QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        guard let sortKey = plan.appendsRecordsLackingSortField else { throw QueryExecutor.staleCursor }
        var following: [(modifiedAt: Int64, id: Int64)]? = stampForListing == nil ? nil : []
        let exhausted = try walkLackingSortField(sortKey, after: start, fewLack: fewLack, following: &following) { record, modifiedAt, id in
            if results.count == limit { return false }
            results.append(record)
            last = .lackingSortField(modifiedAt: modifiedAt, id: id)
            return true
        }
        if exhausted { return (results, nil) }
        if case .lackingSortField(let modifiedAt, let id)? = last, let following, !following.isEmpty, let stamp = stampForListing {
            let listed = following.prefix(QueryLookahead.capacity)
            let lookahead = QueryLookahead(stamp: stamp, ids: listed.map(\.id), endsGroup: listed.count == following.count)
            return (results, .lackingLookahead(modifiedAt: modifiedAt, id: id, lookahead: lookahead, listedThrough: listed.last!.modifiedAt))
        }
        return (results, last)
    }

    /// Hands `body` each matching record without the sort field, in modification order (or
    /// backwards) after `start`, until it returns false; true when they ran out.
    ///
    /// When the filter's own term yields a small share of the type's records, those are loaded
    /// (0.1 s for a page at a million records, whole command). Otherwise finding them reads the
    /// type's records, skipping those that term does not yield, unless the field's index says
    /// better (a single-valued field, counted in its index): none lacks it, so nothing is read;
    /// or few do (under a tenth), so one pass over the indexes finds them (0.3-0.45 s at a
    /// million records, where loading each record took 3.4). When many lack it, loading records
    /// in modification order finds a page of them soon.
    func walkLackingSortField(_ sortKey: FieldKey, after start: (Int64, Int64)?, backwards: Bool = false,
                              _ body: (LoadedRecord, _ modifiedAt: Int64, _ id: Int64) throws -> Bool) throws -> Bool {
        var following: [(modifiedAt: Int64, id: Int64)]?
        return try walkLackingSortField(sortKey, after: start, backwards: backwards, fewLack: false, following: &following, body)
    }

    /// `following`: when not nil and the walk found every record at once (the candidates, or
    /// the one pass), set to those from the one `body` stopped at to the end, each to be loaded
    /// and checked again; left as it was otherwise.
    func walkLackingSortField(_ sortKey: FieldKey, after start: (Int64, Int64)?, backwards: Bool = false, fewLack: Bool,
                              following: inout [(modifiedAt: Int64, id: Int64)]?,
                              _ body: (LoadedRecord, _ modifiedAt: Int64, _ id: Int64) throws -> Bool) throws -> Bool {
        let allowed = try lackingCandidates.flatMap { driver -> Set<Int64>? in
            let ids = try storage.candidateIDs(of: driver, stoppingAt: QueryExecutor.lackingCandidateLimit + 1)
            return ids.count > QueryExecutor.lackingCandidateLimit ? nil : ids
        }
        if let allowed, try storage.countIDs(of: .typeScan, upTo: allowed.count * candidateShare) >= allowed.count * candidateShare {
            return try walkCandidatesLacking(sortKey, allowed, after: start, backwards: backwards, following: &following, body)
        }
        var lackingField: Int64?
        if plan.appendsRecordsLackingSortField != nil, case .range(let fieldID, nil, nil, false) = plan.driver {
            if fewLack {
                lackingField = fieldID
            } else {
                let (lacking, records) = try storage.lackingCount(fieldID: fieldID)
                if lacking == 0 { return true }
                if lacking * 10 < records { lackingField = fieldID }
            }
        }
        var position = start
        // A pass that finds only the lacking records reads them all at once: each statement
        // gathers the field's ids anew.
        let chunk = lackingField == nil ? max(limit * 2, 64) : .max
        while true {
            let rows = try storage.modificationOrder(after: position, count: chunk, backwards: backwards, lackingField: lackingField)
            let kept = allowed.map { allowed in rows.filter { allowed.contains($0.id) } } ?? rows
            var stopped = false
            try forEachMatch(of: kept.map(\.id), firstBatch: limit + 1) { index, record in
                guard record.value(for: sortKey) == nil else { return true }
                let row = kept[index]
                guard try body(record, row.modifiedAt, row.id) else {
                    // The pass read every row left (`chunk` is unbounded): they follow in order.
                    if following != nil, lackingField != nil { following = Array(kept[index...]) }
                    stopped = true
                    return false
                }
                return true
            }
            if stopped { return false }
            if rows.count < chunk { return true }
            position = rows.last
        }
    }

    /// A page among the records lacking the sort field after a cursor that lists those that
    /// follow: they are loaded by id and checked like any candidate (and for lacking the field),
    /// and the one pass over the indexes runs again only past the last of them.
    func runLackingLookahead(after position: (modifiedAt: Int64, id: Int64), _ lookahead: QueryLookahead, listedThrough: Int64) throws
        -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        guard let sortKey = plan.appendsRecordsLackingSortField else { throw QueryExecutor.staleCursor }
        var page: [LoadedRecord] = []
        var last: QueryCursor.Position?
        // A write since may have added, dropped or moved one: the position alone is exact.
        guard let lookaheadStamp, lookahead.stamp == lookaheadStamp, let lastListed = lookahead.ids.last else {
            return try runLackingSortField(after: position, results: &page, last: &last)
        }
        var full: QueryCursor.Position?
        try forEachMatch(of: lookahead.ids, firstBatch: limit + 1, checkingWholeFilter: true) { index, record in
            guard record.value(for: sortKey) == nil else { return true }
            if page.count == limit, case .lackingSortField(let modifiedAt, let lastID)? = last {
                // Full, and a record is known to follow: the rest ride on.
                let rest = QueryLookahead(stamp: lookaheadStamp, ids: Array(lookahead.ids[index...]), endsGroup: lookahead.endsGroup)
                full = .lackingLookahead(modifiedAt: modifiedAt, id: lastID, lookahead: rest, listedThrough: listedThrough)
                return false
            }
            page.append(record)
            last = .lackingSortField(modifiedAt: record.stored.modifiedAt, id: record.stored.id)
            return true
        }
        if let full { return (page, full) }
        if lookahead.endsGroup { return (page, nil) }
        // Past the ids: the walk goes on after the last listed.
        return try runLackingSortField(after: (listedThrough, lastListed), fewLack: true, results: &page, last: &last)
    }

    /// Hands `body` the records lacking the sort field among `candidates` (ids of the filter's
    /// own term, a small share of the type's records), in modification order (or backwards)
    /// after `start`: loading them costs less than any pass over the type's records. Their
    /// keys alone are held; a record is loaded again when it is handed over.
    private func walkCandidatesLacking(_ sortKey: FieldKey, _ candidates: Set<Int64>, after start: (Int64, Int64)?, backwards: Bool,
                                       following: inout [(modifiedAt: Int64, id: Int64)]?,
                                       _ body: (LoadedRecord, _ modifiedAt: Int64, _ id: Int64) throws -> Bool) throws -> Bool {
        func precedes(_ a: (modifiedAt: Int64, id: Int64), _ b: (modifiedAt: Int64, id: Int64)) -> Bool {
            backwards ? (a.modifiedAt, a.id) > (b.modifiedAt, b.id) : (a.modifiedAt, a.id) < (b.modifiedAt, b.id)
        }
        var found: [(modifiedAt: Int64, id: Int64)] = []
        try forEachMatch(of: Array(candidates), firstBatch: Self.loadBatchLimit) { _, record in
            guard record.value(for: sortKey) == nil else { return true }
            let key = (modifiedAt: record.stored.modifiedAt, id: record.stored.id)
            if let start, !precedes(start, key) { return true }
            found.append(key)
            return true
        }
        found.sort(by: precedes)
        // Loaded again: a record kept for each key would hold every candidate's fields.
        var stopped = false
        try forEachMatch(of: found.map(\.id), firstBatch: limit + 1) { index, record in
            let key = found[index]
            guard try body(record, key.modifiedAt, key.id) else {
                if following != nil { following = Array(found[index...]) }
                stopped = true
                return false
            }
            return true
        }
        return !stopped
    }
}
