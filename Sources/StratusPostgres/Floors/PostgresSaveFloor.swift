import Foundation

/// The save workload's floor on PostgreSQL: PostgreSQL inserting the rows Stratus wrote (record
/// rows and their `field_value` index rows) into a store made with the same tables, one batch a
/// transaction as the save workload commits them, each table's rows in one statement
/// (`json_populate_recordset`), so a batch costs a few round trips. Whatever Stratus spends above
/// it is its own work.
///
/// The bench times ``write(_:)`` alone: ``load(_:)`` reads a batch's rows beforehand.
package final class PostgresSaveFloor {
    /// One batch's rows as JSON arrays, one per table.
    package struct Batch {
        fileprivate let records: String
        fileprivate let values: String
    }

    private let connection: PostgresFloorConnection
    private let source: String
    private let ids: [Int64]

    /// Makes `target` (a schema of the same database, replaced when there) an empty store with
    /// the same tables, zones and schema as the store at `sourceURL`.
    package init(copying sourceURL: String, into target: String) throws {
        let location = try PostgresLocation(url: sourceURL)
        let source = location.schema
        try PostgresBackend.drop(location.withSchema(target))
        try PostgresBackend(location: location.withSchema(target), creating: true, environment: nil).close()
        let connection = try PostgresFloorConnection(url: sourceURL, schema: target)
        try connection.transaction {
            // A new store holds its owner's user record: the floor starts from none.
            for table in ["record", "field_value", "tombstone", "zone", "record_type", "schema_field"] {
                try connection.execute("DELETE FROM \(table)")
            }
            for table in ["zone", "record_type", "schema_field"] {
                try connection.execute("INSERT INTO \(table) SELECT * FROM \"\(source)\".\(table)")
            }
        }
        var ids: [Int64] = []
        _ = try connection.readIDs("SELECT id FROM \"\(source)\".record ORDER BY id") { ids.append($0) }
        self.ids = ids
        self.source = source
        self.connection = connection
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
        return Batch(records: try connection.text("SELECT coalesce(json_agg(r), '[]')::text FROM \"\(source)\".record r WHERE id BETWEEN $1 AND $2",
                                                  [low, high]) ?? "[]",
                     values: try connection.text("SELECT coalesce(json_agg(v), '[]')::text FROM \"\(source)\".field_value v WHERE record_id BETWEEN $1 AND $2",
                                                 [low, high]) ?? "[]")
    }

    /// Inserts one batch's rows in one transaction: the timed part.
    package func write(_ batch: Batch) throws {
        try connection.transaction {
            // Named with its schema: a bare `record` is PostgreSQL's pseudo-type, not the table.
            let schema = "\"\(connection.schema)\""
            try connection.execute("INSERT INTO record SELECT * FROM json_populate_recordset(NULL::\(schema).record, $1::json)", [batch.records])
            try connection.execute("INSERT INTO field_value SELECT * FROM json_populate_recordset(NULL::\(schema).field_value, $1::json)", [batch.values])
        }
    }

    /// Removes the floor's store.
    package func remove() throws {
        try connection.drop(schema: connection.schema)
    }
}
