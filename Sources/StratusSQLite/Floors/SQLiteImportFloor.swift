import GRDB

/// The `import` workload's floor: SQL alone copying every row of a Stratus store's record and
/// index tables into another store made with the same schema, table by table.
package enum SQLiteImportFloor {
    /// `inPlace`: pages go straight into the file under a rollback journal, synced fully, as an
    /// import into a new store writes them; else through the write-ahead log.
    package static func copyRows(of source: String, into target: String, inPlace: Bool) throws {
        var configuration = Configuration()
        // Rows go in table by table; the source store already holds them consistently.
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            let journal = inPlace ? "PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL" : "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL"
            // The import's own page cache (PageCache.importKiB), as it writes its store.
            try db.execute(sql: journal + "; PRAGMA cache_size = -\(PageCache.importKiB)")
        }
        let queue = try DatabaseQueue(path: target, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [source])
            for table in ["zone", "record_type", "schema_field", "record", "field_value", "reference_edge"] {
                try db.inTransaction {
                    try db.execute(sql: "DELETE FROM main.\(table)")
                    // `WHERE 1` turns off SQLite's transfer optimization, which copies a table's
                    // B-trees wholesale into an empty table: the floor inserts row by row,
                    // keeping every index, as any importer has to.
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM source.\(table) WHERE 1")
                    return .commit
                }
            }
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO main.record_text (rowid, tokens) SELECT rowid, tokens FROM source.record_text")
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE source")
        }
    }
}
