import StratusModel
import StratusPredicates
import StratusCloud

/// The query's order over matches held in memory: each sort in its direction, records lacking
/// a sort field after those that have it (in either direction), then row ids.
///
/// Matches are sorted by position and moved once at the end: a loaded record is a large value,
/// and a sort that moves whole matches and reaches the query through the executor spent most of
/// the time of a last page with two sorts (`G` in the dashboard) copying and releasing them.
struct MatchOrder {
    /// A match: its sort values and its record.
    typealias Match = (values: [FieldValue?], record: LoadedRecord)

    private let ascending: [Bool]

    init(_ sorts: [SortTerm]) {
        ascending = sorts.map(\.ascending)
    }

    /// Whether the match with sort values `a` and row id `aID` comes before the other.
    func precedes(_ a: [FieldValue?], _ aID: Int64, _ b: [FieldValue?], _ bID: Int64) -> Bool {
        for index in a.indices {
            switch (a[index], b[index]) {
            case (nil, nil): continue
            case (nil, _): return false
            case (_, nil): return true
            case (let x?, let y?):
                let order = SortOrder.compare(x, y)
                if order != 0 { return ascending[index] ? order < 0 : order > 0 }
            }
        }
        return aID < bID
    }

    /// Member positions in this order, the sort at `position` ranked (``SortRank``) to settle
    /// most comparisons when every member shares the sorts before it.
    func positions(of members: [QueryExecutor.Member], rankingSortAt position: Int) -> [Int] {
        SortRank.order(of: members, rankingSortAt: position, ascending: position < ascending.count && ascending[position]) {
            precedes($0.values, $0.id, $1.values, $1.id)
        }
    }

    /// `matches` in this order. `sharingFirstSort`: they all have one first sort value (a run
    /// of the first sort's index), so the second sort is the one ranked.
    func sorted(_ matches: [Match], sharingFirstSort: Bool = false) -> [Match] {
        guard matches.count > 1 else { return matches }
        let members = matches.map { (values: $0.values, id: $0.record.stored.id) }
        return positions(of: members, rankingSortAt: sharingFirstSort ? 1 : 0).map { matches[$0] }
    }
}
