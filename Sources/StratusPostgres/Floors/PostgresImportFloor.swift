/// The `import` workload's floor on PostgreSQL: SQL alone copying every row of a Stratus store's
/// record and index tables into another store made with the same tables, table by table, each
/// in one transaction (rows inserted one by one into the indexes, as any importer has to).
package enum PostgresImportFloor {
    /// Copies the rows of the store in schema `source` into a new store in schema `target` of
    /// the same database (`url` names the database).
    package static func copyRows(url: String, from source: String, into target: String) throws {
        let location = try PostgresLocation(url: url)
        try PostgresBackend.drop(location.withSchema(target))
        try PostgresBackend(location: location.withSchema(target), creating: true, environment: nil).close()
        let connection = try PostgresFloorConnection(url: url, schema: target)
        for table in ["zone", "record_type", "schema_field", "record", "field_value"] {
            try connection.transaction {
                try connection.execute("DELETE FROM \(table)")
                try connection.execute("INSERT INTO \(table) SELECT * FROM \"\(source)\".\(table)")
            }
        }
    }
}
