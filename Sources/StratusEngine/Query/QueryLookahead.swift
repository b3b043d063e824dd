import StratusModel
import StratusCloud

/// The matches that follow a sorted page, in the answer's order, as that page's own read found
/// them: a cursor carries them so the next page loads its records by id.
///
/// A page of a two-sort query whose cursor sits inside a group of equal first values must
/// otherwise read and sort the whole group again (a thousand rows or more, for a hundred); and
/// a query answered by loading and sorting every match would load them all again. The ids are
/// good only while what they were read from is unchanged (``LookaheadStamp``): a cursor whose
/// zone or schema has changed since reads as a plain keyset position. They are listed only by a
/// caller who sees every record of the zone and type, so a right to read gained later (a role,
/// a share accepted) cannot make records appear between them.
///
/// A cursor is a client's to forge, so nothing is taken on trust: each record listed is loaded
/// through the same checks as any candidate (zone, type, visibility, and every filter term).
struct QueryLookahead: Equatable {
    /// At most this many ids ride in a cursor: about 1.5 KB of it at a million records.
    static let capacity = 500

    /// What the ids were read from.
    var stamp: LookaheadStamp
    var ids: [Int64]
    /// Whether `ids` are every match left in the group of the position's first sort value, so
    /// the read after them starts at the next group.
    var endsGroup: Bool

    /// The lookahead for `ids` (the first ``capacity`` of them), or nil when there is nothing
    /// to carry or no stamp to carry it under.
    static func following(_ ids: some Collection<Int64>, stamp: LookaheadStamp?, endingGroup: Bool) -> QueryLookahead? {
        guard let stamp, !ids.isEmpty else { return nil }
        let fits = ids.count <= capacity
        return QueryLookahead(stamp: stamp, ids: Array(ids.prefix(capacity)), endsGroup: endingGroup && fits)
    }
}

/// What a query's matches depend on besides the caller: the zone (which one, and its
/// incarnation and change sequence, moved by every write to a record in it and by making the
/// zone again) and the schema's version (a schema change can change what a filter means, such
/// as the fields a token search reads).
struct LookaheadStamp: Equatable {
    var zoneRowID: Int64
    var incarnation: Int64
    var changeSequence: Int64
    var schemaVersion: Int64
}

extension QueryCursor.Position {
    /// After `values` and `id` in the query's sort order, with the matches that follow when
    /// there are some to carry.
    static func sorted(values: [FieldValue?], id: Int64, lookahead: QueryLookahead?) -> Self {
        lookahead.map { .sortedLookahead(values: values, id: id, lookahead: $0) } ?? .sorted(values: values, id: id)
    }
}
