import StratusModel
import StratusPredicates
import StratusCloud

/// The end of a two-sort answer whose last group is large (`G` in the dashboard, a million
/// records in groups of tens of thousands): instead of reading and sorting every record of the
/// group, walk the second sort's index from its end and keep the rows whose records are in the
/// group, as ``walkSecondSort(groupKey:after:)`` does for pages that start inside a group. The
/// tail then costs about its records times how many groups there are in index rows, and its
/// own records loaded, not the group.
extension QueryExecutor {
    /// Index rows read at a time.
    private static let tailWalkChunk = 1_024

    /// The last `needed` matches of the answer's last group, in the answer's order; nil when
    /// the walk does not apply (not two walkable sorts, a small group, records lacking the
    /// second field, fewer matches in the group than needed) or would cost more than reading
    /// the group. The records lacking the first sort field, which follow the last group, are
    /// the caller's.
    func walkLastGroup(needed: Int) throws -> [MatchOrder.Match]? {
        guard needed > 0, let (firstField, secondField) = walkableFields, let groupKey = try firstGroupKey(backwards: true) else { return nil }
        let group = QueryPlan.Driver.values(fieldID: firstField, keys: [groupKey], folded: false, streaming: true)
        // Where a record read whole costs more (a server database), smaller groups pay.
        let cost = storage.wholeRecordCost
        let threshold = max(1, walkableGroupSize / max(1, cost / SecondSortWalk.budgetPerMember))
        guard try storage.countIDs(of: group, upTo: threshold) >= threshold else { return nil }
        // Records lacking the second field end their group; only reading the group finds them.
        guard try storage.lackingCount(fieldID: secondField).lacking == 0 else { return nil }
        let members = try storage.candidateIDs(of: group, stoppingAt: .max)
        var budget = members.count * cost
        // From the group's end: the second sort's index against the sort's direction, each run
        // of one value by id from the largest (ties go by id).
        let backwards = query.sorts[1].ascending
        var position: (key: IndexValue, id: Int64)?
        var run: [Int64] = []
        var runKey: IndexValue?
        var ready: [Int64] = []
        var exhausted = false
        var tail: [MatchOrder.Match] = []
        func endRun() {
            ready.append(contentsOf: run.sorted(by: >))
            run.removeAll(keepingCapacity: true)
        }
        while tail.count < needed {
            // Whole runs, until they hold as many ids as the tail still needs.
            while !exhausted, ready.count < needed - tail.count {
                var rows = 0
                var stopped = false
                try storage.streamIndex(fieldID: secondField, descending: backwards, afterKey: position?.key, afterID: position?.id,
                                        count: Self.tailWalkChunk) { id, key in
                    rows += 1
                    budget -= 1
                    position = (key, id)
                    if members.contains(id) {
                        if let current = runKey, !SecondSortWalk.sameKey(key, current) { endRun() }
                        runKey = key
                        run.append(id)
                    }
                    // The run this row begins stays open: the next read goes on from here.
                    if budget <= 0 || ready.count >= needed - tail.count {
                        stopped = true
                        return false
                    }
                    return true
                }
                if budget <= 0 { return nil }
                if !stopped, rows < Self.tailWalkChunk {
                    endRun()
                    exhausted = true
                }
            }
            if ready.isEmpty { return nil }
            let batch = ready
            ready = []
            budget -= batch.count * SecondSortWalk.loadCost
            if budget <= 0 { return nil }
            try forEachMatch(of: batch, firstBatch: needed - tail.count) { _, record in
                tail.append((query.sorts.map(record.sortValue), record))
                return tail.count < needed
            }
        }
        return tail.reversed()
    }
}
