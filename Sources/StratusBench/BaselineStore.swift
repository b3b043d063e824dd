import Foundation
import StratusEngine
import StratusModel
import StratusSQLite

/// The same data in plain SQLite tables designed by hand for the benchmark's workloads: one
/// column per field, the indexes each query needs, an FTS5 table and an R*Tree. This is the
/// best a person could do with SQLite directly; Stratus is measured against it. Its SQL is the
/// bench's own; it runs through the SQLite backend's floor connection.
final class BaselineStore {
    let connection: SQLiteFloorConnection

    init(path: String) throws {
        // Mapped as Stratus's readers map the store.
        connection = try SQLiteFloorConnection(path: path,
                                               setup: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = \(Store.defaultMemoryMapBytes)",
                                               functions: [Self.distance])
        try connection.execute("""
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

    var count: Int {
        get throws { Int(try connection.integer("SELECT count(*) FROM venue") ?? 0) }
    }

    /// Inserts one batch in one transaction, as the Stratus side saves batches of 400.
    func insert(_ venues: [BenchVenue], modified: Int64) throws {
        try connection.write { db in
            let venue = try db.statement("""
                INSERT INTO venue (id, name, title, category, category_folded, price, rating, opened, latitude, longitude, description, tags, modified, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let tag = try db.statement("INSERT OR IGNORE INTO venue_tag (tag, venue_id) VALUES (?, ?)")
            let text = try db.statement("INSERT INTO venue_text (rowid, title, category, description) VALUES (?, ?, ?, ?)")
            let geo = try db.statement("INSERT INTO venue_geo (id, min_latitude, max_latitude, min_longitude, max_longitude) VALUES (?, ?, ?, ?, ?)")
            for item in venues {
                let id = Int64(item.index + 1)
                try venue.execute([.integer(id), .text(item.recordName), .text(item.title), .text(item.category), .text(item.category.lowercased()),
                                   .integer(Int64(item.price)), .real(item.rating), .integer(Int64(item.opened)), .real(item.latitude),
                                   .real(item.longitude), .text(item.description), .text(item.tags.joined(separator: ",")), .integer(modified),
                                   .integer(id)])
                for name in Set(item.tags.map { $0.lowercased() }) { try tag.execute([.text(name), .integer(id)]) }
                try text.execute([.integer(id), .text(item.title), .text(item.category), .text(item.description)])
                try geo.execute([.integer(id), .real(item.latitude), .real(item.latitude), .real(item.longitude), .real(item.longitude)])
            }
        }
    }

    /// Writes every venue as a JSON line in the CloudKit Web Services shape (the same keys an
    /// export writes, system fields included), built by SQLite's json_object: the baseline of `export`.
    func exportLines(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var chunk = Data()
        try connection.forEachText("""
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
            """) { line in
            chunk.append(contentsOf: line.utf8)
            chunk.append(0x0A)
            if chunk.count > 1 << 20 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: chunk)
    }

    /// Reads every column of each row a query returns, as a client would.
    func rows(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws -> Int {
        try connection.readEveryColumn(sql, arguments)
    }

    /// The same great-circle formula Stratus uses, for the location workload.
    static let distance = SQLiteFloorFunction(name: "bench_distance", argumentCount: 4) { values in
        guard let lat1 = values[0].real, let lon1 = values[1].real, let lat2 = values[2].real, let lon2 = values[3].real else { return .null }
        return .real(Location(latitude: lat1, longitude: lon1).distance(to: Location(latitude: lat2, longitude: lon2)))
    }

    static let columns = "v.id, v.name, v.title, v.category, v.price, v.rating, v.opened, v.latitude, v.longitude, v.description, v.tags, v.modified"
}
