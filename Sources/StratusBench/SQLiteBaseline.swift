import Foundation
import StratusEngine
import StratusModel
import StratusSQLite

/// The same data in plain SQLite tables designed by hand for the benchmark's workloads: one
/// column per field, the indexes each query needs, an FTS5 table and an R*Tree. This is the
/// best a person could do with SQLite directly; a file store is measured against it. Its SQL is
/// the bench's own; it runs through the SQLite backend's floor connection.
final class SQLiteBaseline: BenchBaseline {
    let connection: SQLiteFloorConnection
    private let sidecarPath: String

    let name = "SQLite"

    /// The baseline in the file at `path`; what the bench remembers in the file at `sidecarPath`.
    init(path: String, sidecarPath: String) throws {
        self.sidecarPath = sidecarPath
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

    /// The same keys an export writes, system fields included, built by SQLite's json_object.
    func exportLines(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var chunk = Data()
        try connection.forEachText("SELECT \(Self.recordJSON(changeTag: "seq")) FROM venue ORDER BY seq") { line in
            chunk.append(contentsOf: line.utf8)
            chunk.append(0x0A)
            if chunk.count > 1 << 20 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: chunk)
    }

    func answer(_ read: BaselineRead) throws -> String {
        let (sql, arguments) = Self.sql(read)
        // The read's columns by their names (id is the row's sequence, as in the table).
        let answer = "SELECT json_object('records', json_group_array(\(Self.recordJSON(changeTag: "id")))) FROM (\(sql)) v"
        guard case .text(let text) = try connection.rows(answer, arguments).first?.values.first else { return "" }
        return text
    }

    /// One venue as a record in the CloudKit Web Services shape, system fields included, built
    /// by json_object from a row's columns; its change tag from the column `changeTag`.
    private static func recordJSON(changeTag: String) -> String {
        """
        json_object('recordName', name, 'recordType', 'Venue', 'recordChangeTag', printf('%010x', \(changeTag)),
            'zoneID', json_object('zoneName', 'Bench', 'ownerRecordName', '__defaultOwner__'), 'fields', json_object(
            'title', json_object('value', title, 'type', 'STRING'), 'category', json_object('value', category, 'type', 'STRING'),
            'price', json_object('value', price, 'type', 'INT64'), 'rating', json_object('value', rating, 'type', 'DOUBLE'),
            'opened', json_object('value', opened, 'type', 'TIMESTAMP'),
            'tags', json_object('value', json(CASE tags WHEN '' THEN '[]' ELSE '["' || replace(tags, ',', '","') || '"]' END), 'type', 'STRING_LIST'),
            'location', json_object('value', json_object('latitude', latitude, 'longitude', longitude), 'type', 'LOCATION'),
            'description', json_object('value', description, 'type', 'STRING')),
            'created', json_object('timestamp', modified, 'userRecordName', '_0ef232a054f2491284ab17cc41eae3c6'),
            'modified', json_object('timestamp', modified, 'userRecordName', '_0ef232a054f2491284ab17cc41eae3c6'))
        """
    }

    func rows(_ read: BaselineRead) throws -> Int {
        let (sql, arguments) = Self.sql(read)
        return try connection.readEveryColumn(sql, arguments)
    }

    func count(_ filter: BaselineCount) throws -> Int {
        switch filter {
        case .all: Int(try connection.integer("SELECT count(*) FROM venue") ?? 0)
        case .ratingAtLeast(let rating): Int(try connection.integer("SELECT count(*) FROM venue WHERE rating >= ?", [.real(rating)]) ?? 0)
        }
    }

    func page(_ page: BaselinePage, after: [BenchValue]?, keys: Bool) throws -> (rows: Int, last: [BenchValue]?) {
        let columns = Self.columns
        let (sql, names): (String, [String]) = switch page {
        case .priceAtLeast(let price):
            ("SELECT \(columns) FROM venue v WHERE price >= \(price) \(after == nil ? "" : "AND (price, id) > (?, ?)") ORDER BY price, id LIMIT 100",
             ["price", "id"])
        case .wordByRating(let word):
            ("SELECT \(columns) FROM venue_text t JOIN venue v ON v.id = t.rowid WHERE venue_text MATCH '\(word)' "
                + "\(after == nil ? "" : "AND (v.rating, v.id) > (?, ?)") ORDER BY v.rating, v.id LIMIT 100", ["rating", "id"])
        case .priceAboveByRatingThenTitle(let price):
            ("SELECT \(columns) FROM venue v WHERE price > \(price) \(after == nil ? "" : "AND (v.rating, v.title, v.id) > (?, ?, ?)") "
                + "ORDER BY v.rating, v.title, v.id LIMIT 100", ["rating", "title", "id"])
        }
        let arguments = (after ?? []).map(Self.value)
        guard keys else { return (try connection.readEveryColumn(sql, arguments), nil) }
        let rows = try connection.rows(sql, arguments)
        return (rows.count, rows.last.map { row in names.map { Self.value(row[$0]) } })
    }

    func savedSidecar() -> BenchSidecar? { BenchSidecar.load(sidecarPath) }

    func keep(_ sidecar: BenchSidecar) throws { sidecar.save(sidecarPath) }

    /// Nothing to gather, as for the store: the queries' plans follow from the indexes.
    func gatherPlannerStatistics() throws {}

    /// The SQL of a read workload.
    private static func sql(_ read: BaselineRead) -> (String, [SQLiteFloorValue]) {
        switch read {
        case .category(let name):
            ("SELECT \(columns) FROM venue v WHERE category_folded = ? ORDER BY id LIMIT 100", [.text(name)])
        case .ratingAtLeastDescending(let rating):
            ("SELECT \(columns) FROM venue v WHERE rating >= ? ORDER BY rating DESC, id DESC LIMIT 100", [.real(rating)])
        case .titlePrefix(let prefix):
            ("SELECT \(columns) FROM venue v WHERE title >= ? AND title < ? ORDER BY title, id LIMIT 100", [.text(prefix), .text(prefix + "\u{10FFFF}")])
        case .word(let word):
            ("SELECT \(columns) FROM venue_text t JOIN venue v ON v.id = t.rowid WHERE venue_text MATCH ? ORDER BY t.rowid LIMIT 100", [.text(word)])
        case .near(let latitude, let longitude, let kilometres):
            ("""
             SELECT \(columns) FROM venue_geo g JOIN venue v ON v.id = g.id
             WHERE g.max_latitude >= ? AND g.min_latitude <= ? AND g.max_longitude >= ? AND g.min_longitude <= ?
             AND bench_distance(v.latitude, v.longitude, ?, ?) < ? ORDER BY g.id LIMIT 100
             """, BaselineBox(latitude: latitude, longitude: longitude, kilometres: kilometres).bounds.map(SQLiteFloorValue.real)
                + [latitude, longitude, kilometres].map(SQLiteFloorValue.real))
        case .tag(let tag):
            ("SELECT \(columns) FROM venue_tag t JOIN venue v ON v.id = t.venue_id WHERE t.tag = ? ORDER BY t.venue_id LIMIT 100", [.text(tag)])
        case .byModified:
            ("SELECT \(columns) FROM venue v ORDER BY modified, id LIMIT 100", [])
        case .tailByRatingThenTitle(let limit):
            ("SELECT \(columns) FROM venue v ORDER BY rating, title DESC, id DESC LIMIT \(limit)", [])
        case .names(let names):
            ("SELECT \(columns) FROM venue v WHERE name IN (\(Array(repeating: "?", count: names.count).joined(separator: ",")))", names.map(SQLiteFloorValue.text))
        case .changes(let sequence, let limit):
            ("SELECT \(columns) FROM venue v WHERE seq > ? ORDER BY seq LIMIT \(limit)", [.integer(sequence)])
        case .everything:
            ("SELECT \(columns) FROM venue v", [])
        case .newestSequence:
            ("SELECT max(seq) FROM venue", [])
        case .newestPage(let limit):
            ("SELECT * FROM venue ORDER BY rowid DESC LIMIT \(limit)", [])
        }
    }

    private static func value(_ value: BenchValue) -> SQLiteFloorValue {
        switch value {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        }
    }

    private static func value(_ value: SQLiteFloorValue) -> BenchValue {
        switch value {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .null, .blob: .integer(0)
        }
    }

    /// The same great-circle formula Stratus uses, for the location workload.
    static let distance = SQLiteFloorFunction(name: "bench_distance", argumentCount: 4) { values in
        guard let lat1 = values[0].real, let lon1 = values[1].real, let lat2 = values[2].real, let lon2 = values[3].real else { return .null }
        return .real(Location(latitude: lat1, longitude: lon1).distance(to: Location(latitude: lat2, longitude: lon2)))
    }

    static let columns = "v.id, v.name, v.title, v.category, v.price, v.rating, v.opened, v.latitude, v.longitude, v.description, v.tags, v.modified"
}
