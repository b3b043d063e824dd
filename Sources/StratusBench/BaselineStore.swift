import Foundation
import GRDB
import StratusEngine
import StratusModel
import StratusSQLite

/// The same data in plain SQLite tables designed by hand for the benchmark's workloads: one
/// column per field, the indexes each query needs, an FTS5 table and an R*Tree. This is the
/// best a person could do with SQLite directly; Stratus is measured against it.
final class BaselineStore {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Mapped as Stratus's readers map the store.
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = \(Store.defaultMemoryMapBytes)")
            db.add(function: BaselineStore.distance)
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS venue (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, title TEXT NOT NULL, category TEXT NOT NULL,
                    category_folded TEXT NOT NULL, price INTEGER NOT NULL, rating REAL NOT NULL, opened INTEGER NOT NULL,
                    latitude REAL NOT NULL, longitude REAL NOT NULL, description TEXT NOT NULL, tags TEXT NOT NULL, modified INTEGER NOT NULL,
                    seq INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX IF NOT EXISTS venue_name ON venue (name);
                CREATE INDEX IF NOT EXISTS venue_category ON venue (category_folded);
                CREATE INDEX IF NOT EXISTS venue_title ON venue (title);
                CREATE INDEX IF NOT EXISTS venue_price ON venue (price);
                CREATE INDEX IF NOT EXISTS venue_rating ON venue (rating);
                CREATE INDEX IF NOT EXISTS venue_modified ON venue (modified);
                CREATE INDEX IF NOT EXISTS venue_seq ON venue (seq);
                CREATE TABLE IF NOT EXISTS venue_tag (tag TEXT NOT NULL, venue_id INTEGER NOT NULL, PRIMARY KEY (tag, venue_id)) WITHOUT ROWID;
                CREATE VIRTUAL TABLE IF NOT EXISTS venue_text USING fts5 (title, category, description, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE IF NOT EXISTS venue_geo USING rtree (id, min_latitude, max_latitude, min_longitude, max_longitude);
                """)
        }
    }

    var count: Int {
        get throws { try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM venue") ?? 0 } }
    }

    /// Inserts one batch in one transaction, as the Stratus side saves batches of 400.
    func insert(_ venues: [BenchVenue], modified: Int64) throws {
        try queue.write { db in
            let venue = try db.cachedStatement(sql: """
                INSERT INTO venue (id, name, title, category, category_folded, price, rating, opened, latitude, longitude, description, tags, modified, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let tag = try db.cachedStatement(sql: "INSERT OR IGNORE INTO venue_tag (tag, venue_id) VALUES (?, ?)")
            let text = try db.cachedStatement(sql: "INSERT INTO venue_text (rowid, title, category, description) VALUES (?, ?, ?, ?)")
            let geo = try db.cachedStatement(sql: "INSERT INTO venue_geo (id, min_latitude, max_latitude, min_longitude, max_longitude) VALUES (?, ?, ?, ?, ?)")
            for item in venues {
                let id = Int64(item.index + 1)
                try venue.execute(arguments: [id, item.recordName, item.title, item.category, item.category.lowercased(), item.price, item.rating,
                                              item.opened, item.latitude, item.longitude, item.description, item.tags.joined(separator: ","), modified, id])
                for name in Set(item.tags.map { $0.lowercased() }) { try tag.execute(arguments: [name, id]) }
                try text.execute(arguments: [id, item.title, item.category, item.description])
                try geo.execute(arguments: [id, item.latitude, item.latitude, item.longitude, item.longitude])
            }
        }
    }

    /// Writes every venue as a JSON line in the CloudKit Web Services shape (the same keys an
    /// export writes, system fields included), built by SQLite's json_object: the baseline of `export`.
    func exportLines(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try queue.read { db in
            let cursor = try String.fetchCursor(db, sql: """
                SELECT json_object('recordName', name, 'recordType', 'Venue', 'recordChangeTag', printf('%010x', seq),
                    'zoneID', json_object('zoneName', 'Bench', 'ownerRecordName', '__defaultOwner__'), 'fields', json_object(
                    'title', json_object('value', title, 'type', 'STRING'), 'category', json_object('value', category, 'type', 'STRING'),
                    'price', json_object('value', price, 'type', 'INT64'), 'rating', json_object('value', rating, 'type', 'DOUBLE'),
                    'opened', json_object('value', opened, 'type', 'TIMESTAMP'),
                    'tags', json_object('value', json('["' || replace(tags, ',', '","') || '"]'), 'type', 'STRING_LIST'),
                    'location', json_object('value', json_object('latitude', latitude, 'longitude', longitude), 'type', 'LOCATION'),
                    'description', json_object('value', description, 'type', 'STRING')),
                    'created', json_object('timestamp', modified, 'userRecordName', '_0ef232a054f2491284ab17cc41eae3c6'),
                    'modified', json_object('timestamp', modified, 'userRecordName', '_0ef232a054f2491284ab17cc41eae3c6')) FROM venue ORDER BY seq
                """)
            var chunk = Data()
            while let line = try cursor.next() {
                chunk.append(contentsOf: line.utf8)
                chunk.append(0x0A)
                if chunk.count > 1 << 20 {
                    try handle.write(contentsOf: chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: chunk)
        }
    }

    /// Copies every row of a Stratus store's record and index tables into another store made
    /// with the same schema, table by table, with SQL alone: the baseline of `import`.
    /// `inPlace`: pages go straight into the file under a rollback journal, synced fully, as an
    /// import into a new store writes them; else through the write-ahead log.
    static func copyRows(of source: String, into target: String, inPlace: Bool) throws {
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
                    // B-trees wholesale into an empty table: the baseline inserts row by row,
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

    /// Reads every column of each row a query returns, as a client would.
    func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try queue.read { db in
            var count = 0
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try cursor.next() {
                for value in row.databaseValues { _ = value }
                count += 1
            }
            return count
        }
    }

    /// The same great-circle formula Stratus uses, for the location workload.
    static let distance = DatabaseFunction("bench_distance", argumentCount: 4, pure: true) { values in
        guard let lat1 = Double.fromDatabaseValue(values[0]), let lon1 = Double.fromDatabaseValue(values[1]),
              let lat2 = Double.fromDatabaseValue(values[2]), let lon2 = Double.fromDatabaseValue(values[3]) else { return nil }
        return Location(latitude: lat1, longitude: lon1).distance(to: Location(latitude: lat2, longitude: lon2))
    }

    static let columns = "v.id, v.name, v.title, v.category, v.price, v.rating, v.opened, v.latitude, v.longitude, v.description, v.tags, v.modified"
}
