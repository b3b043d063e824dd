import StratusModel
import StratusPredicates

/// Several sorts streamed from the first one's index: rows come in the first sort's order, each
/// run of equal first values (a group) is sorted by the other sorts then row id, and a page
/// stops once it is full. The order is exactly the in-memory sort's (``QueryExecutor/sortedMatches()``),
/// records lacking the first sort field last, so either may continue the other's cursor; a page
/// costs its rows and the groups they fall in, not every match.
extension QueryExecutor {
    typealias Member = (values: [FieldValue?], record: LoadedRecord)

    func runGrouped(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var after: (values: [FieldValue?], id: Int64)?
        switch position {
        case nil: break
        case .sorted(let values, let id)? where values.count == query.sorts.count: after = (values, id)
        default: throw QueryExecutor.staleCursor
        }
        var page: [Member] = []
        var more = false
        /// Adds a group's members in order after the cursor; false once the page is full and
        /// another match is known to follow.
        func emit(_ group: [Member]) -> Bool {
            for member in group.sorted(by: { precedes($0.values, $0.record.stored.id, $1.values, $1.record.stored.id) }) {
                if let after, !precedes(after.values, after.id, member.values, member.record.stored.id) { continue }
                if page.count == limit {
                    more = true
                    return false
                }
                page.append(member)
            }
            return true
        }
        let resumesAmongLacking = after.map { $0.values[0] == nil } ?? false
        if !resumesAmongLacking, try !streamGroups(from: after?.values[0], emit: emit) {
            return (page.map(\.record), nextPosition(page))
        }
        if plan.appendsRecordsLackingSortField != nil, !emit(try recordsLackingFirstSort()) {
            return (page.map(\.record), nextPosition(page))
        }
        return (page.map(\.record), more ? nextPosition(page) : nil)
    }

    private func nextPosition(_ page: [Member]) -> QueryCursor.Position? {
        page.last.map { .sorted(values: $0.values, id: $0.record.stored.id) }
    }

    /// Streams the driver from the group of `first` (all of it: the cursor may be inside it),
    /// handing each whole group to `emit`; false when `emit` stopped.
    private func streamGroups(from first: FieldValue?, emit: ([Member]) -> Bool) throws -> Bool {
        var key = first.flatMap(IndexKey.init)?.value
        // Just before the group's first row, whichever the direction.
        var id: Int64? = key == nil ? nil : (plan.descending ? Int64.max : Int64.min)
        var group: [Member] = []
        var groupKey: IndexValue?
        let chunk = max(limit * 4, 256)
        while true {
            var rowCount = 0
            var stopped = false
            try streamingRows(afterKey: key, afterID: id, count: chunk) { rowID, rowKey, stored in
                rowCount += 1
                key = rowKey
                id = rowID
                if rowKey != groupKey {
                    guard emit(group) else {
                        stopped = true
                        return false
                    }
                    group = []
                    groupKey = rowKey
                }
                guard let record = try matching(stored) else { return true }
                group.append((query.sorts.map(record.sortValue), record))
                return true
            }
            if stopped { return false }
            if rowCount < chunk { return emit(group) }
        }
    }

    /// The matching records without the first sort field (not in its index), in any order.
    func recordsLackingFirstSort() throws -> [Member] {
        guard let key = plan.appendsRecordsLackingSortField else { return [] }
        var members: [Member] = []
        for id in try storage.recordIDs() {
            guard let record = try loadMatching(id), record.value(for: key) == nil else { continue }
            members.append((query.sorts.map(record.sortValue), record))
        }
        return members
    }
}
