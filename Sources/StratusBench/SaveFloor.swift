import Foundation
import GRDB
import StratusEngine
import StratusSQLite
import StratusStores

/// The save workload's fair floor: SQLite alone inserting the rows Stratus wrote (record rows,
/// index rows, reference edges, full-text rows) into a store with the same tables, 400 records
/// a transaction as the save workload commits them, with the store's journal (WAL) and
/// `synchronous` (NORMAL). Whatever Stratus spends above it is its own work, not SQLite's.
///
/// The hand-made baseline (one table of columns, a few indexes) is kept beside it: it says
/// what a different design would cost, this one what this design costs at the least.
enum SaveFloor {
    struct Measurement {
        var milliseconds: Double
        var bytesWritten: Double?
    }

    static func measure(copying source: String, into target: String, recordsPerTransaction: Int) throws -> Measurement {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        _ = try StoreOpener.open(target, ifMissing: .create)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: target, configuration: configuration)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) } }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [source])
            try db.inTransaction {
                // A new store holds its owner's user record: the floor starts from none.
                for table in ["record", "field_value", "reference_edge", "record_text", "tombstone"] {
                    try db.execute(sql: "DELETE FROM main.\(table)")
                }
                for table in ["zone", "record_type", "schema_field"] {
                    try db.execute(sql: "DELETE FROM main.\(table)")
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM source.\(table)")
                }
                // The rows each batch reads, by record: kept apart so that reading costs nothing
                // of the timed writes.
                try db.execute(sql: """
                    CREATE TEMP TABLE floor_value AS SELECT * FROM source.field_value ORDER BY record_id;
                    CREATE INDEX temp.floor_value_by_record ON floor_value (record_id);
                    CREATE TEMP TABLE floor_edge AS SELECT * FROM source.reference_edge;
                    CREATE INDEX temp.floor_edge_by_source ON floor_edge (source_id);
                    """)
                return .commit
            }
        }
        let ids = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM source.record ORDER BY id") }
        var milliseconds = 0.0
        var bytes: Double? = 0
        for start in stride(from: 0, to: ids.count, by: recordsPerTransaction) {
            let low = ids[start], high = ids[min(ids.count, start + recordsPerTransaction) - 1]
            let rows = try queue.read { db in
                (records: try Row.fetchAll(db, sql: "SELECT * FROM source.record WHERE id BETWEEN ? AND ?", arguments: [low, high]),
                 values: try Row.fetchAll(db, sql: "SELECT zone_id, field_id, value, record_id, folded FROM floor_value WHERE record_id BETWEEN ? AND ?",
                                          arguments: [low, high]),
                 edges: try Row.fetchAll(db, sql: "SELECT * FROM floor_edge WHERE source_id BETWEEN ? AND ?", arguments: [low, high]),
                 texts: try Row.fetchAll(db, sql: "SELECT rowid, tokens FROM source.record_text WHERE rowid BETWEEN ? AND ?", arguments: [low, high]))
            }
            let before = BenchMeasurement.bytesWritten()
            milliseconds += try BenchMeasurement.once {
                try queue.write { db in
                    try insert(rows.records, into: "record", in: db)
                    try insert(rows.values, into: "field_value", in: db)
                    try insert(rows.edges, into: "reference_edge", in: db)
                    let text = try db.cachedStatement(sql: "INSERT INTO main.record_text (rowid, tokens) VALUES (?, ?)")
                    for row in rows.texts { try text.execute(arguments: StatementArguments(row.databaseValues)) }
                }
            }
            if let before, let after = BenchMeasurement.bytesWritten() { bytes? += after - before } else { bytes = nil }
        }
        return Measurement(milliseconds: milliseconds, bytesWritten: bytes)
    }

    private static func insert(_ rows: [Row], into table: String, in db: Database) throws {
        guard let first = rows.first else { return }
        let columns = Array(first.columnNames)
        let statement = try db.cachedStatement(sql: "INSERT INTO main.\(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        for row in rows { try statement.execute(arguments: StatementArguments(row.databaseValues)) }
    }
}
