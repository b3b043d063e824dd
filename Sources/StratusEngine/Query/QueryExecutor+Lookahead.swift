import StratusModel
import StratusPredicates
import StratusCloud

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
        var rest: QueryLookahead?
        try forEachMatch(of: lookahead.ids, firstBatch: limit + 1, checkingWholeFilter: true) { index, record in
            if page.count == limit {
                // Full, and a match is known to follow: the rest ride on.
                rest = QueryLookahead(stamp: lookaheadStamp, ids: Array(lookahead.ids[index...]), endsGroup: lookahead.endsGroup)
                return false
            }
            page.append(record)
            last = (query.sorts.map(record.sortValue), record.stored.id)
            return true
        }
        if let rest { return (page, .sortedLookahead(values: last.values, id: last.id, lookahead: rest)) }
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
