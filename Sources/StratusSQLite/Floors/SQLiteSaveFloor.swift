import Foundation
import GRDB

/// The save workload's fair floor: SQLite alone inserting the rows Stratus wrote (record rows,
/// index rows, reference edges, full-text rows) into a store with the same tables, one batch a
/// transaction as the save workload commits them, with the store's journal (WAL) and
/// `synchronous` (NORMAL). Whatever Stratus spends above it is its own work, not SQLite's.
///
/// The bench times ``write(_:)`` alone: ``load(_:)`` reads a batch's rows beforehand, so
/// reading costs nothing of the timed writes.
package final class SQLiteSaveFloor {
    /// The rows of one batch of records, read from the source store.
    package struct Batch {
        fileprivate let records: [Row]
        fileprivate let values: [Row]
        fileprivate let edges: [Row]
        fileprivate let texts: [Row]
    }

    private let queue: DatabaseQueue
    /// The source's record ids, in order: batches are ranges of them.
    private let ids: [Int64]

    /// Readies `target`, an empty store made with the same schema, to receive the rows of
    /// the store at `source`.
    package init(copying source: String, into target: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.journalMode = .wal
        queue = try DatabaseQueue(path: target, configuration: configuration)
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
                // The rows each batch reads, by record.
                try db.execute(sql: """
                    CREATE TEMP TABLE floor_value AS SELECT * FROM source.field_value ORDER BY record_id;
                    CREATE INDEX temp.floor_value_by_record ON floor_value (record_id);
                    CREATE TEMP TABLE floor_edge AS SELECT * FROM source.reference_edge;
                    CREATE INDEX temp.floor_edge_by_source ON floor_edge (source_id);
                    """)
                return .commit
            }
        }
        ids = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM source.record ORDER BY id") }
    }

    /// The source's records cut into batches of `recordsPerTransaction`, as record id ranges.
    package func batches(recordsPerTransaction: Int) -> [ClosedRange<Int64>] {
        stride(from: 0, to: ids.count, by: recordsPerTransaction).map { start in
            ids[start]...ids[min(ids.count, start + recordsPerTransaction) - 1]
        }
    }

    /// Reads the rows of the records in `range` from the source.
    package func load(_ range: ClosedRange<Int64>) throws -> Batch {
        let (low, high) = (range.lowerBound, range.upperBound)
        return try queue.read { db in
            Batch(records: try Row.fetchAll(db, sql: "SELECT * FROM source.record WHERE id BETWEEN ? AND ?", arguments: [low, high]),
                  values: try Row.fetchAll(db, sql: "SELECT zone_id, field_id, value, record_id, folded FROM floor_value WHERE record_id BETWEEN ? AND ?",
                                           arguments: [low, high]),
                  edges: try Row.fetchAll(db, sql: "SELECT * FROM floor_edge WHERE source_id BETWEEN ? AND ?", arguments: [low, high]),
                  texts: try Row.fetchAll(db, sql: "SELECT rowid, tokens FROM source.record_text WHERE rowid BETWEEN ? AND ?", arguments: [low, high]))
        }
    }

    /// Inserts one batch's rows in one transaction: the timed part.
    package func write(_ batch: Batch) throws {
        try queue.write { db in
            try Self.insert(batch.records, into: "record", in: db)
            try Self.insert(batch.values, into: "field_value", in: db)
            try Self.insert(batch.edges, into: "reference_edge", in: db)
            let text = try db.cachedStatement(sql: "INSERT INTO main.record_text (rowid, tokens) VALUES (?, ?)")
            for row in batch.texts { try text.execute(arguments: StatementArguments(row.databaseValues)) }
        }
    }

    private static func insert(_ rows: [Row], into table: String, in db: Database) throws {
        guard let first = rows.first else { return }
        let columns = Array(first.columnNames)
        let statement = try db.cachedStatement(sql: "INSERT INTO main.\(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        for row in rows { try statement.execute(arguments: StatementArguments(row.databaseValues)) }
    }
}
