import StratusModel
import StratusPredicates
import StratusCloud

extension QueryExecutor {
    /// The last `limit` records of the whole result, in the result's order, read from its end:
    /// the dashboard shows the end of a million matches at once, before it has counted them.
    func runTail() throws -> [LoadedRecord] {
        if case .nothing = plan.driver { return [] }
        if let streaming = try sortIndexInstead(at: nil) { return try streaming.runTail() }
        if plan.groupsTies {
            if plan.isStreaming && plan.driverIsOrdered { return try groupedTail() }
            // Sorted in memory; the driver leaves out the records lacking the first sort
            // field, which end the result.
            let lacking = order.sorted(try recordsLackingFirstSort())
            return (try sortedMatches() + lacking).suffix(limit).map(\.record)
        }
        if plan.isStreaming && plan.driverIsOrdered { return try streamingTail() }
        if query.sorts.isEmpty {
            var tail: [LoadedRecord] = []
            try forEachMatch(of: try candidateIDs().sorted(by: >), firstBatch: limit) { _, record in
                tail.append(record)
                return tail.count < limit
            }
            return tail.reversed()
        }
        return try sortedMatches().suffix(limit).map(\.record)
    }

    /// The grouped order (``runGrouped(after:skippingGroup:)``) backwards: the records lacking
    /// the first sort field first (they end the result), then the first sort's index from its
    /// end, a run of equal values at a time, each run sorted whole; it stops at the first run
    /// that fills the tail, so the end of a million matches costs its last runs, not them all.
    /// A large last group's end comes from walking the second sort's index instead
    /// (``walkLastGroup(needed:)``).
    private func groupedTail() throws -> [LoadedRecord] {
        // Runs from the end of the result: the last one first.
        var runs: [[MatchOrder.Match]] = [order.sorted(try recordsLackingFirstSort())]
        var held = runs[0].count
        if held < limit, let walked = try walkLastGroup(needed: limit - held) {
            return (walked + runs[0]).suffix(limit).map(\.record)
        }
        var run: [MatchOrder.Match] = []
        var runKey: IndexValue?
        var afterKey: IndexValue?
        var afterID: Int64?
        let chunk = max(limit * 4, 256)
        func endRun() {
            held += run.count
            runs.append(order.sorted(run, sharingFirstSort: true))
            run = []
        }
        reading: while held < limit {
            var rowCount = 0
            var filled = false
            try storage.streamRows(of: plan.driver, descending: plan.descending, afterKey: afterKey, afterID: afterID, count: chunk,
                                   backwards: true) { id, key, stored in
                rowCount += 1
                afterKey = key
                afterID = id
                if key != runKey {
                    endRun()
                    runKey = key
                    if held >= limit {
                        filled = true
                        return false
                    }
                }
                if let record = try matching(stored) { run.append((query.sorts.map(record.sortValue), record)) }
                return true
            }
            if filled { break reading }
            if rowCount < chunk {
                endRun()
                break reading
            }
        }
        return runs.reversed().joined().suffix(limit).map(\.record)
    }

    /// The streaming order backwards: the records lacking the sort field first (they end the
    /// result), then the driver's index from its end.
    private func streamingTail() throws -> [LoadedRecord] {
        var tail: [LoadedRecord] = []
        if let sortKey = plan.appendsRecordsLackingSortField {
            _ = try walkLackingSortField(sortKey, after: nil, backwards: true) { record, _, _ in
                tail.append(record)
                return tail.count < limit
            }
        }
        let chunk = max(limit * 4, 256)
        var afterKey: IndexValue?
        var afterID: Int64?
        while tail.count < limit {
            var rowCount = 0
            try streamingRows(afterKey: afterKey, afterID: afterID, count: chunk, backwards: true) { id, key, stored in
                rowCount += 1
                // A list holding two values with one folded key yields its record twice in a row.
                if id == afterID { return true }
                afterKey = key
                afterID = id
                guard let record = try matching(stored) else { return true }
                tail.append(record)
                return tail.count < limit
            }
            if rowCount < chunk { break }
        }
        return tail.reversed()
    }
}
