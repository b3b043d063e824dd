import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// A zone's change feed as stored: its deletions (`tombstone`) and its changed records
/// (`record`), each read in sequence order through its (zone, seq) index.
///
/// The two are read apart and merged by the caller: one UNION ALL statement made SQLite sort
/// both sides again in a temporary b-tree, copying every row with its fields, which cost more
/// than the reads.
struct SQLiteChangeFeedStorage: ChangeFeedStorage {
    let db: SQLiteTransaction

    /// The zone's deletions with a sequence in (`start`, `stop`], oldest first, at most `limit`.
    /// Deletions are few and small, so they are read whole.
    func deletions(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int) throws -> [ChangeFeedDeletion] {
        let statement = try db.sqlite.cachedStatement(sql: """
            SELECT seq, name, type_id FROM tombstone WHERE zone_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?
            """)
        var deletions: [ChangeFeedDeletion] = []
        let rows = try Int64.fetchCursor(statement, arguments: [zoneRowID, start, stop, limit])
        while let sequence = try rows.next() {
            let row = statement.sqliteStatement
            deletions.append(ChangeFeedDeletion(sequence: sequence, name: String(sqliteStatement: row, index: 1), typeID: Int64(sqliteStatement: row, index: 2)))
        }
        return deletions
    }

    /// Streams the zone's records last changed in (`start`, `stop`], oldest change first, at
    /// most `limit`, until `body` returns false. With `includingChangedKeys`, `body` also gets
    /// the record's `changed_keys` (`ChangedKeys.encode`d; nil when unknown), which costs about
    /// as much again per record.
    func changedRecords(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int, includingChangedKeys: Bool, _ body: (StoredRecord, _ changedKeys: String?) throws -> Bool) throws {
        let statement = try db.sqlite.cachedStatement(sql: """
            SELECT \(SQLiteRecordStorage.columns)\(includingChangedKeys ? ", changed_keys" : "") FROM record WHERE zone_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?
            """)
        let rows = try Int64.fetchCursor(statement, arguments: [zoneRowID, start, stop, limit])
        while try rows.next() != nil {
            let row = statement.sqliteStatement
            var changedKeys: String?
            if includingChangedKeys, case .string(let keys) = DatabaseValue(sqliteStatement: row, index: 12).storage {
                changedKeys = keys
            }
            guard try body(StoredRecord(statement: row), changedKeys) else { return }
        }
    }
}
