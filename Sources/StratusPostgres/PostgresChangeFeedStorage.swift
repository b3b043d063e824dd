import StratusCloud
import StratusEngine

/// A zone's change feed in a PostgreSQL store: its records and deletions by sequence.
struct PostgresChangeFeedStorage: ChangeFeedStorage {
    let db: PostgresTransaction

    func deletions(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int) throws -> [ChangeFeedDeletion] {
        try db.link.rows("SELECT seq, name, type_id FROM tombstone WHERE zone_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4",
                         [zoneRowID, start, stop, limit]).map { ChangeFeedDeletion(sequence: try $0.int(0), name: try $0.string(1), typeID: try $0.int(2)) }
    }

    func changedRecords(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int, includingChangedKeys: Bool,
                        _ body: (StoredRecord, _ changedKeys: String?) throws -> Bool) throws {
        let rows = try db.link.rows("""
            SELECT \(PostgresRecordStorage.columns), changed_keys FROM record WHERE zone_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq, id LIMIT $4
            """, [zoneRowID, start, stop, limit])
        for row in rows {
            guard try body(try PostgresRecordStorage.record(row), includingChangedKeys ? try row.optionalString(12) : nil) else { return }
        }
    }
}
