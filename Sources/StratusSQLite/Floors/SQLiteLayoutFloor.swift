import GRDB
import GRDBSQLite
import StratusEngine

/// SQLite alone reading one first-sort group out of Stratus's own store: the group's index rows
/// joined to their record rows, each row's field blob read, nothing decoded. A two-sort page
/// whose cursor sits inside a group must order the whole group (as SQLite's own plan does on the
/// baseline), so this is what the store's layout costs that page before Stratus's code runs.
/// Beside the hand-made baseline it separates the layout's share of a ratio from the code's.
package struct SQLiteLayoutFloor {
    private let queue: DatabaseQueue

    package init(storePath: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            // Mapped as Stratus's readers map the store.
            try db.execute(sql: "PRAGMA mmap_size = \(Store.defaultMemoryMapBytes)")
        }
        queue = try DatabaseQueue(path: storePath, configuration: configuration)
    }

    /// A reader of the group whose `field` equals `value`, in the zone named `zoneName` that
    /// holds record `recordName`, which returns how many rows the group has; nil when the zone,
    /// record or field is not in the store. The bench times the reader.
    package func groupReader(zoneName: String, recordName: String, recordType: String, field: String,
                             value: Double) throws -> (() throws -> Int)? {
        let ids: (zone: Int64, field: Int64)? = try queue.read { db in
            // Zone first (CROSS JOIN keeps the order), then `record_by_name` (zone, name): the record
            // name alone would scan the table.
            guard let zone = try Int64.fetchOne(db, sql: """
                      SELECT z.id FROM zone z CROSS JOIN record r ON r.zone_id = z.id AND r.name = ? WHERE z.name = ? LIMIT 1
                      """, arguments: [recordName, zoneName]),
                  let field = try Int64.fetchOne(db, sql: """
                      SELECT f.id FROM schema_field f JOIN record_type t ON t.id = f.type_id WHERE t.name = ? AND f.name = ?
                      """, arguments: [recordType, field]) else { return nil }
            return (zone, field)
        }
        guard let ids else { return nil }
        let sql = """
            SELECT f.record_id, r.fields FROM field_value f JOIN record r ON r.id = f.record_id
            WHERE f.zone_id = ? AND f.field_id = ? AND f.value = ? ORDER BY f.record_id
            """
        let queue = queue
        return {
            try queue.read { db in
                let statement = try db.cachedStatement(sql: sql)
                let cursor = try Int64.fetchCursor(statement, arguments: [ids.zone, ids.field, value])
                var count = 0, touched = 0
                while try cursor.next() != nil {
                    // The blob's bytes are read where they lie, as Stratus's scan reads them.
                    let length = Int(sqlite3_column_bytes(statement.sqliteStatement, 1))
                    if length > 0, let bytes = sqlite3_column_blob(statement.sqliteStatement, 1) {
                        touched &+= Int(bytes.load(fromByteOffset: length - 1, as: UInt8.self))
                    }
                    count += 1
                }
                // `touched` decides the answer, so the reads above cannot be optimized away.
                return touched >= 0 ? count : 0
            }
        }
    }
}
