import StratusModel
import StratusPredicates

/// A page after a cursor that carries the matches following it (``QueryLookahead``): their
/// records are loaded by id, and the driver is read only past them.
extension QueryExecutor {
    func runLookahead(after position: (values: [FieldValue?], id: Int64), _ lookahead: QueryLookahead) throws
        -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        let plain = QueryCursor.Position.sorted(values: position.values, id: position.id)
        // A write since may have added, dropped or moved a match: the position alone is exact.
        guard let lookaheadStamp, lookahead.stamp == lookaheadStamp, position.values.count == query.sorts.count else { return try run(after: plain) }
        var page: [LoadedRecord] = []
        var last = position
        for (index, id) in lookahead.ids.enumerated() {
            guard let record = try loadListed(id) else { continue }
            if page.count == limit {
                // Full, and a match is known to follow: the rest ride on.
                let rest = QueryLookahead(stamp: lookaheadStamp, ids: Array(lookahead.ids[index...]), endsGroup: lookahead.endsGroup)
                return (page, .sortedLookahead(values: last.values, id: last.id, lookahead: rest))
            }
            page.append(record)
            last = (query.sorts.map(record.sortValue), record.stored.id)
        }
        // Past the ids: the driver's read, after the last record listed (and after its group,
        // when the ids held the group's every match).
        var reading = self
        reading.limit = max(limit - page.count, 1)
        let (more, next) = try reading.run(after: .sorted(values: last.values, id: last.id), skippingGroup: lookahead.endsGroup)
        guard page.count == limit else { return (page + more, next) }
        // The page was full when the ids ran out: the one record read to learn whether any
        // follows starts the next cursor's list, with the matches its read listed after it, so
        // the next page does not read that stretch again.
        guard let probed = more.first else { return (page, nil) }
        var ids = [probed.stored.id]
        var endsGroup = false
        if case .sortedLookahead(_, _, let after)? = next, after.stamp == lookaheadStamp {
            ids += after.ids
            endsGroup = after.endsGroup
        }
        return (page, .sorted(values: last.values, id: last.id, lookahead: QueryLookahead.following(ids, stamp: stampForListing, endingGroup: endsGroup)))
    }
}

extension QueryExecutor {
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
        for (index, id) in lookahead.ids.enumerated() {
            guard let record = try loadListed(id), record.value(for: sortKey) == nil else { continue }
            if page.count == limit, case .lackingSortField(let modifiedAt, let lastID)? = last {
                // Full, and a record is known to follow: the rest ride on.
                let rest = QueryLookahead(stamp: lookaheadStamp, ids: Array(lookahead.ids[index...]), endsGroup: lookahead.endsGroup)
                return (page, .lackingLookahead(modifiedAt: modifiedAt, id: lastID, lookahead: rest, listedThrough: listedThrough))
            }
            page.append(record)
            last = .lackingSortField(modifiedAt: record.stored.modifiedAt, id: id)
        }
        if lookahead.endsGroup { return (page, nil) }
        // Past the ids: the walk goes on after the last listed.
        return try runLackingSortField(after: (listedThrough, lastListed), results: &page, last: &last)
    }
}
