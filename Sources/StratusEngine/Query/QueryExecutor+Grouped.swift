import StratusModel
import StratusPredicates
import StratusCloud

/// Several sorts streamed from the first one's index: rows come in the first sort's order, each
/// run of equal first values (a group) is sorted by the other sorts then row id, and a page
/// stops once it is full. The order is exactly the in-memory sort's (``QueryExecutor/sortedMatches()``),
/// records lacking the first sort field last, so either may continue the other's cursor; a page
/// costs its rows and the groups they fall in, not every match.
extension QueryExecutor {
    /// A match in a group: its sort values and row id.
    typealias Member = (values: [FieldValue?], id: Int64)

    /// A run of rows with one first-sort value: its matches, and the records a whole-record scan
    /// already loaded. A scan that reads only the fields the query needs (``PartialRecord``)
    /// loads a member's record when it makes the page, from the row the storage sent whole
    /// when it did (`rows`), or by id.
    struct Group {
        var members: [Member] = []
        var loaded: [Int64: LoadedRecord] = [:]
        var rows: [Int64: StoredRecord] = [:]
    }

    func runGrouped(after position: QueryCursor.Position?, skippingGroup: Bool = false) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var after: (values: [FieldValue?], id: Int64)?
        switch position {
        case nil: break
        case .sorted(let values, let id)? where values.count == query.sorts.count: after = (values, id)
        default: throw QueryExecutor.staleCursor
        }
        var page: [(values: [FieldValue?], record: LoadedRecord)] = []
        var more = false
        // The rest of the group the page ends in, which the next page need not read again.
        var following: QueryLookahead?
        /// Adds a group's members in order after the cursor; false once the page is full and
        /// another match is known to follow.
        func emit(_ group: Group) throws -> Bool {
            let members = group.members
            // Members share the first sort value: the second one's rank settles most comparisons.
            var positions = order.positions(of: members, rankingSortAt: 1)
            if let after { positions.removeAll { !precedes(after.values, after.id, members[$0].values, members[$0].id) } }
            try forEachMatch(of: positions.map { members[$0].id }, firstBatch: limit - page.count + 1, known: group.loaded, rows: group.rows) { offset, record in
                if page.count == limit {
                    more = true
                    following = QueryLookahead.following(positions[offset...].lazy.map { members[$0].id }, stamp: stampForListing, endingGroup: true)
                    return false
                }
                page.append((members[positions[offset]].values, record))
                return true
            }
            return !more
        }
        func finished(_ more: Bool) -> (records: [LoadedRecord], next: QueryCursor.Position?) {
            (page.map(\.record), more ? page.last.map { .sorted(values: $0.values, id: $0.record.stored.id, lookahead: following) } : nil)
        }
        let resumesAmongLacking = after.map { $0.values[0] == nil } ?? false
        if skippingGroup, let after {
            // The group of the cursor holds nothing more: on from the next one.
            if resumesAmongLacking { return finished(false) }
            let start = after.values[0].flatMap(IndexKey.init)?.value
            if try !streamGroups(from: start, skippingFirst: true, emit: emit) { return finished(true) }
        } else if !resumesAmongLacking {
            // The group the page starts in: the cursor's, or the driver's first when a first
            // page may walk (otherwise streaming finds it).
            var start: IndexValue?
            if let after {
                start = after.values[0].flatMap(IndexKey.init)?.value
            } else if walkableFields != nil {
                start = try firstGroupKey()
            }
            if let start, let walked = try walkSecondSort(groupKey: start, after: after) {
                return (walked.map(\.record), walked.last.map { .sorted(values: $0.values, id: $0.record.stored.id) })
            }
            if try !streamGroups(from: start, skippingFirst: false, emit: emit) { return finished(true) }
        }
        if plan.appendsRecordsLackingSortField != nil, try !emit(lackingFirstSortGroup()) { return finished(true) }
        return finished(more)
    }

    /// Streams the driver from the group of `first` (all of it: the cursor may be inside it;
    /// none of it when `skippingFirst`), or from its start, handing each whole group to `emit`;
    /// false when `emit` stopped.
    private func streamGroups(from first: IndexValue?, skippingFirst: Bool, emit: (Group) throws -> Bool) throws -> Bool {
        var key = first
        // Just before the group's first row, whichever the direction.
        var id: Int64? = key == nil ? nil : (plan.descending ? Int64.max : Int64.min)
        var group = Group()
        var groupKey: IndexValue?
        let chunk = max(limit * 4, 256)
        let selection = PartialRecord.fieldsRead(by: residual, sorts: query.sorts)
        if let first = key, skippingFirst {
            groupKey = first
            id = plan.descending ? Int64.min : Int64.max
        } else if let first = key, case .range(let fieldID, _, _, false) = plan.driver {
            // The group the page starts in, whole, by one equality lookup: cheaper than stepping
            // a range through it in chunks. The range then resumes past the group's last row.
            let equal = QueryPlan.Driver.values(fieldID: fieldID, keys: [first], folded: false, streaming: true)
            try groupRows(of: equal, afterKey: nil, afterID: nil, count: .max, selecting: selection) { rowID, _, member, record, row in
                if let member { group.members.append(member) }
                if let record { group.loaded[rowID] = record }
                if member != nil, let row { group.rows[rowID] = row }
                return true
            }
            guard try emit(group) else { return false }
            group = Group()
            groupKey = first
            id = plan.descending ? Int64.min : Int64.max
        }
        while true {
            var rowCount = 0
            var stopped = false
            try groupRows(of: plan.driver, afterKey: key, afterID: id, count: chunk, selecting: selection) { rowID, rowKey, member, record, row in
                rowCount += 1
                key = rowKey
                id = rowID
                if rowKey != groupKey {
                    guard try emit(group) else {
                        stopped = true
                        return false
                    }
                    group = Group()
                    groupKey = rowKey
                }
                if let member { group.members.append(member) }
                if let record { group.loaded[rowID] = record }
                if member != nil, let row { group.rows[rowID] = row }
                return true
            }
            if stopped { return false }
            if rowCount < chunk { return try emit(group) }
        }
    }

    /// The driver's rows after the keyset position, each with its member when it matches (as
    /// far as the scan can tell: visibility is checked when the record is loaded). With a
    /// selection, rows bring only the fields the query reads, and most of a group is never
    /// loaded; without one, whole records. A member's `row` is its record as the storage sent
    /// it whole, when it did.
    private func groupRows(of driver: QueryPlan.Driver, afterKey: IndexValue?, afterID: Int64?, count: Int, selecting selection: FieldSelection?,
                           _ body: (Int64, IndexValue?, Member?, LoadedRecord?, StoredRecord?) throws -> Bool) throws {
        guard let selection else {
            return try storage.streamRows(of: driver, descending: plan.descending, afterKey: afterKey, afterID: afterID, count: count,
                                          backwards: false) { id, key, stored in
                guard let record = try matching(stored) else { return try body(id, key, nil, nil, nil) }
                return try body(id, key, (query.sorts.map(record.sortValue), id), record, nil)
            }
        }
        var record = PartialRecord(selection: selection)
        try storage.streamFields(of: driver, descending: plan.descending, afterKey: afterKey, afterID: afterID, count: count,
                                 selecting: selection) { id, key, fields, row in
            // The filter's fields first: most rows of a group stop there.
            try fields.decode(selection.filterFields, into: &record.values)
            guard residual.terms.isEmpty || residual.matches(record) else { return try body(id, key, nil, nil, nil) }
            try fields.decode(selection.sortOnlyFields, into: &record.values)
            return try body(id, key, (query.sorts.map(record.sortValue), id), nil, row)
        }
    }

    private func lackingFirstSortGroup() throws -> Group {
        var group = Group()
        for (values, record) in try recordsLackingFirstSort() {
            group.members.append((values, record.stored.id))
            group.loaded[record.stored.id] = record
        }
        return group
    }

    /// The matching records without the first sort field (not in its index), in any order.
    func recordsLackingFirstSort() throws -> [(values: [FieldValue?], record: LoadedRecord)] {
        guard let key = plan.appendsRecordsLackingSortField else { return [] }
        var members: [(values: [FieldValue?], record: LoadedRecord)] = []
        _ = try walkLackingSortField(key, after: nil) { record, _, _ in
            members.append((query.sorts.map(record.sortValue), record))
            return true
        }
        return members
    }
}
