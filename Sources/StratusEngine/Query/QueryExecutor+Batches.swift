import StratusModel
import StratusPredicates
import StratusCloud

/// Matches loaded by id a batch at a time. A query that collects its candidates' ids (a
/// location, a token search sorted by another field, a cursor's list of what follows) loads
/// each by id; on a server database a statement per record costs a round trip per record,
/// so the ids are read in batches: first about what the page still needs, then four times as
/// many each time, up to ``loadBatchLimit``.
extension QueryExecutor {
    /// The most ids one batch reads.
    static let loadBatchLimit = 1_000

    /// Hands `body` the records of `ids` that match (``loadMatching(_:)``; with
    /// `checkingWholeFilter`, every term of the filter, those the driver answers too: for ids a
    /// cursor lists, which no index read vouches for), in the order of `ids`, each with its
    /// offset in `ids`, until `body` returns false. `firstBatch` is how many ids the first read
    /// covers: what the caller expects to take, and one more to learn whether a match follows.
    /// Records in `known` are taken from there, and those in `rows` checked without being read.
    func forEachMatch(of ids: [Int64], firstBatch: Int, known: [Int64: LoadedRecord] = [:], rows: [Int64: StoredRecord] = [:],
                      checkingWholeFilter: Bool = false, _ body: (_ offset: Int, _ record: LoadedRecord) throws -> Bool) throws {
        var start = ids.startIndex
        var batch = min(max(firstBatch, 1), Self.loadBatchLimit)
        while start < ids.endIndex {
            let end = min(start + batch, ids.endIndex)
            let unread = ids[start..<end].filter { known[$0] == nil && rows[$0] == nil }
            let stored = unread.isEmpty ? [:] : try storage.records(ids: unread)
            for offset in start..<end {
                let id = ids[offset]
                let record: LoadedRecord?
                if let held = known[id] {
                    record = held
                } else if let row = rows[id] ?? stored[id] {
                    record = checkingWholeFilter ? try matching(row, filter: query.filter) : try matching(row)
                } else {
                    record = nil
                }
                guard let record else { continue }
                guard try body(offset, record) else { return }
            }
            start = end
            batch = min(batch * 4, Self.loadBatchLimit)
        }
    }
}
