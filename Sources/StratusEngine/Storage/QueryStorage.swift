import StratusModel
import StratusCloud

/// What running a query needs from storage, for one zone and record type, in the engine's
/// words: a plan's driver read in index order or as a set of record ids, the type's records in
/// modification order, and a record by id.
///
/// The query engine (planner, executor, cursors, CloudKit's ordering rules) lives above this
/// seam and holds no SQL. `SQLiteQueryStorage` and `PostgresQueryStorage` implement these
/// calls over their own tables and indexes; the memory store's `MemoryQueryStorage` over index
/// entries it makes as the query starts.
package protocol QueryStorage {
    /// Hands `body` the driver's rows after the keyset position, in the driver's order
    /// (`descending` for a descending sort; `backwards` reads that order from its end), each
    /// with its index value and its record, at most `count` of them, until `body` returns false.
    ///
    /// Drivers ordered by value (`range`, `systemTime`) resume after (`afterKey`, `afterID`);
    /// those ordered by record id (`values`, `text`) after `afterID`; `typeScan` after
    /// (modification time, id). A `location` or `names` driver does not stream.
    func streamRows(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                    backwards: Bool, _ body: (_ id: Int64, _ key: IndexValue?, _ record: StoredRecord) throws -> Bool) throws

    /// As ``streamRows(of:descending:afterKey:afterID:count:backwards:_:)`` forwards, but each
    /// row comes with only where its selected fields lie, not the whole record: for scans that
    /// read many rows to return a few (a group of equal first-sort values), which decode the
    /// fields each step needs and load the records they keep by id. `fields` is valid only
    /// during the call. `row` is the whole record when the storage read it anyway (a server
    /// database sends the row whole), so a record kept need not be read again; nil otherwise.
    func streamFields(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                      selecting selection: FieldSelection,
                      _ body: (_ id: Int64, _ key: IndexValue?, _ fields: FieldSelection.Located, _ row: StoredRecord?) throws -> Bool) throws

    /// A field's index rows in value order (`descending`: from the largest), after the keyset
    /// position (`afterKey`, `afterID`), without their records: each row's record id and value,
    /// at most `count` of them, until `body` returns false. For a walk that keeps the rows whose
    /// ids it already holds and loads only those records.
    func streamIndex(fieldID: Int64, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                     _ body: (_ id: Int64, _ key: IndexValue) throws -> Bool) throws

    /// How many record ids the driver yields, counting no further than `limit`.
    func countIDs(of driver: QueryPlan.Driver, upTo limit: Int) throws -> Int

    /// The record ids the driver yields, each once (or the first `stop` of them), unordered.
    func candidateIDs(of driver: QueryPlan.Driver, stoppingAt stop: Int) throws -> Set<Int64>

    /// The type's records in modification order (or backwards) after `start`, at most `count`;
    /// with `lackingField`, only those without a row in that field's index (lacking the field).
    func modificationOrder(after start: (modifiedAt: Int64, id: Int64)?, count: Int, backwards: Bool,
                           lackingField: Int64?) throws -> [(modifiedAt: Int64, id: Int64)]

    /// The record with row id `id`, whatever its zone and type.
    func record(id: Int64) throws -> StoredRecord?

    /// The records with these row ids, whatever their zone and type, by id (an id with no
    /// record is left out). Where each statement is a round trip to a server, a query that
    /// loads its matches by id reads them a batch at a time rather than one at a time.
    func records(ids: [Int64]) throws -> [Int64: StoredRecord]

    /// How many of the type's records have no row in single-valued field `fieldID`'s index
    /// (lack the field), and how many records the type has; both counted in indexes, without
    /// reading a record. The records lacking a sort field end a sorted answer.
    func lackingCount(fieldID: Int64) throws -> (lacking: Int, records: Int)

    /// What reading a record whole costs, in rows of an index read: how large a run of equal
    /// sort values must be before walking another index beats reading the run whole.
    var wholeRecordCost: Int { get }
}

extension QueryStorage {
    /// An embedded file's: a record read whole costs about two index rows (its row beside
    /// the index's, both on pages already at hand).
    package var wholeRecordCost: Int { SecondSortWalk.budgetPerMember }

    /// One ``record(id:)`` after another: as fast as a batch where a statement costs no
    /// round trip (an embedded file, memory).
    package func records(ids: [Int64]) throws -> [Int64: StoredRecord] {
        var found: [Int64: StoredRecord] = [:]
        found.reserveCapacity(ids.count)
        for id in ids {
            if let record = try record(id: id) { found[id] = record }
        }
        return found
    }
}
