import Foundation
import StratusModel
import StratusPostgres

/// The same data in PostgreSQL tables designed by hand for the benchmark's workloads, in a
/// schema of their own beside the store's: one column per field, a B-tree for each sort, GIN
/// indexes for the tag list and the words (a generated `tsvector`), a GiST index on the place.
/// This is the best a person could do with PostgreSQL directly; a PostgreSQL store is measured
/// against it, on the same server. Its SQL is the bench's own.
final class PostgresBaseline: BenchBaseline {
    private let connection: PostgresFloorConnection
    let name = "PostgreSQL"

    /// The baseline in `schema` of the database the store URL `url` names (made when missing).
    init(url: String, schema: String) throws {
        connection = try PostgresFloorConnection(url: url, schema: schema)
        try connection.script("""
            CREATE TABLE IF NOT EXISTS venue (
                id bigint PRIMARY KEY, name text COLLATE "C" NOT NULL UNIQUE, title text COLLATE "C" NOT NULL, category text NOT NULL,
                category_folded text COLLATE "C" NOT NULL, price bigint NOT NULL, rating double precision NOT NULL, opened bigint NOT NULL,
                latitude double precision NOT NULL, longitude double precision NOT NULL, description text NOT NULL, tags text NOT NULL,
                tag_list text[] NOT NULL, modified bigint NOT NULL, seq bigint NOT NULL,
                words tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || category || ' ' || description)) STORED
            );
            CREATE INDEX IF NOT EXISTS venue_category ON venue (category_folded, id);
            CREATE INDEX IF NOT EXISTS venue_title ON venue (title, id);
            CREATE INDEX IF NOT EXISTS venue_price ON venue (price, id);
            CREATE INDEX IF NOT EXISTS venue_rating ON venue (rating, id);
            CREATE INDEX IF NOT EXISTS venue_modified ON venue (modified, id);
            CREATE INDEX IF NOT EXISTS venue_seq ON venue (seq);
            CREATE INDEX IF NOT EXISTS venue_tags ON venue USING gin (tag_list);
            CREATE INDEX IF NOT EXISTS venue_words ON venue USING gin (words);
            CREATE INDEX IF NOT EXISTS venue_place ON venue USING gist (point(longitude, latitude));
            CREATE TABLE IF NOT EXISTS bench_sidecar (id int PRIMARY KEY CHECK (id = 1), body text NOT NULL)
            """)
        // The same great-circle formula Stratus uses, for the location workload.
        try connection.execute("""
            CREATE OR REPLACE FUNCTION bench_distance(lat1 float8, lon1 float8, lat2 float8, lon2 float8) RETURNS float8
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT 2 * \(Location.earthRadiusKilometres) * asin(least(1, sqrt(
                    sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2)))
            $$
            """)
    }

    /// Removes the baseline's schema.
    func remove() throws { try connection.drop(schema: connection.schema) }

    var count: Int {
        get throws { Int(try connection.integer("SELECT count(*) FROM venue") ?? 0) }
    }

    /// One statement for the batch: its rows as a JSON array, spread into columns by PostgreSQL.
    func insert(_ venues: [BenchVenue], modified: Int64) throws {
        let rows: [[String: Any]] = venues.map { item in
            let id = Int64(item.index + 1)
            return ["id": id, "name": item.recordName, "title": item.title, "category": item.category, "category_folded": item.category.lowercased(),
                    "price": item.price, "rating": item.rating, "opened": item.opened, "latitude": item.latitude, "longitude": item.longitude,
                    "description": item.description, "tags": item.tags.joined(separator: ","), "tag_list": Array(Set(item.tags.map { $0.lowercased() })),
                    "modified": modified, "seq": id]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
        try connection.transaction {
            try connection.execute("""
                INSERT INTO venue (id, name, title, category, category_folded, price, rating, opened, latitude, longitude, description, tags,
                                   tag_list, modified, seq)
                SELECT id, name, title, category, category_folded, price, rating, opened, latitude, longitude, description, tags, tag_list, modified, seq
                FROM json_populate_recordset(NULL::venue, $1::json)
                """, [json])
        }
    }

    /// The same keys an export writes, system fields included, built by `json_build_object`.
    func exportLines(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var after: Int64 = 0
        while true {
            var chunk = Data()
            var last: Int64?
            // Pages of 10,000 by seq: the whole table at once would sit in memory.
            _ = try connection.eachText("""
                SELECT seq, \(Self.recordJSON(changeTag: "seq"))::text
                FROM venue WHERE seq > $1 ORDER BY seq LIMIT 10000
                """, [after]) { sequence, line in
                last = sequence
                chunk.append(contentsOf: line.utf8)
                chunk.append(0x0A)
            }
            try handle.write(contentsOf: chunk)
            guard let last else { return }
            after = last
        }
    }

    func rows(_ read: BaselineRead) throws -> Int {
        let (sql, binds) = Self.sql(read)
        return try connection.readEveryColumn(sql, binds)
    }

    func answer(_ read: BaselineRead) throws -> String {
        let (sql, binds) = Self.sql(read)
        // The read's columns by their names (id is the row's sequence, as in the table).
        let answer = "SELECT json_build_object('records', coalesce(json_agg(\(Self.recordJSON(changeTag: "id"))), '[]'))::text FROM (\(sql)) v"
        return try connection.text(answer, binds) ?? ""
    }

    /// One venue as a record in the CloudKit Web Services shape, system fields included, built
    /// by `json_build_object` from a row's columns; its change tag from the column `changeTag`.
    private static func recordJSON(changeTag: String) -> String {
        let user = "'_0ef232a054f2491284ab17cc41eae3c6'"
        return """
            json_build_object('recordName', name, 'recordType', 'Venue', 'recordChangeTag', lpad(to_hex(\(changeTag)), 10, '0'),
                'zoneID', json_build_object('zoneName', 'Bench', 'ownerRecordName', '__defaultOwner__'), 'fields', json_build_object(
                'title', json_build_object('value', title, 'type', 'STRING'), 'category', json_build_object('value', category, 'type', 'STRING'),
                'price', json_build_object('value', price, 'type', 'INT64'), 'rating', json_build_object('value', rating, 'type', 'DOUBLE'),
                'opened', json_build_object('value', opened, 'type', 'TIMESTAMP'),
                'tags', json_build_object('value', string_to_array(tags, ','), 'type', 'STRING_LIST'),
                'location', json_build_object('value', json_build_object('latitude', latitude, 'longitude', longitude), 'type', 'LOCATION'),
                'description', json_build_object('value', description, 'type', 'STRING')),
                'created', json_build_object('timestamp', modified, 'userRecordName', \(user)),
                'modified', json_build_object('timestamp', modified, 'userRecordName', \(user)))
            """
    }

    /// The SQL of a read workload.
    private static func sql(_ read: BaselineRead) -> (String, [any PostgresBinding]) {
        let columns = Self.columns
        return switch read {
        case .category(let name):
            ("SELECT \(columns) FROM venue v WHERE category_folded = $1 ORDER BY id LIMIT 100", [name])
        case .ratingAtLeastDescending(let rating):
            ("SELECT \(columns) FROM venue v WHERE rating >= $1 ORDER BY rating DESC, id DESC LIMIT 100", [rating])
        case .titlePrefix(let prefix):
            ("SELECT \(columns) FROM venue v WHERE title >= $1 AND title < $2 ORDER BY title, id LIMIT 100", [prefix, prefix + "\u{10FFFF}"])
        case .word(let word):
            ("SELECT \(columns) FROM venue v WHERE words @@ to_tsquery('simple', $1) ORDER BY id LIMIT 100", [word])
        case .near(let latitude, let longitude, let kilometres):
            ("""
             SELECT \(columns) FROM venue v WHERE point(longitude, latitude) <@ box(point($3, $1), point($4, $2))
             AND bench_distance(latitude, longitude, $5, $6) < $7 ORDER BY id LIMIT 100
             """, BaselineBox(latitude: latitude, longitude: longitude, kilometres: kilometres).bounds + [latitude, longitude, kilometres])
        case .tag(let tag):
            ("SELECT \(columns) FROM venue v WHERE tag_list @> ARRAY[$1::text] ORDER BY id LIMIT 100", [tag])
        case .byModified:
            ("SELECT \(columns) FROM venue v ORDER BY modified, id LIMIT 100", [])
        case .tailByRatingThenTitle(let limit):
            ("SELECT \(columns) FROM venue v ORDER BY rating, title DESC, id DESC LIMIT \(limit)", [])
        case .names(let names):
            ("SELECT \(columns) FROM venue v WHERE name = ANY($1)", [names])
        case .changes(let sequence, let limit):
            ("SELECT \(columns) FROM venue v WHERE seq > $1 ORDER BY seq LIMIT \(limit)", [sequence])
        case .everything:
            ("SELECT \(columns) FROM venue v", [])
        case .newestSequence:
            ("SELECT max(seq) FROM venue", [])
        case .newestPage(let limit):
            ("SELECT \(columns) FROM venue v ORDER BY id DESC LIMIT \(limit)", [])
        }
    }

    func count(_ filter: BaselineCount) throws -> Int {
        switch filter {
        case .all: Int(try connection.integer("SELECT count(*) FROM venue") ?? 0)
        case .ratingAtLeast(let rating): Int(try connection.integer("SELECT count(*) FROM venue WHERE rating >= $1", [rating]) ?? 0)
        }
    }

    func page(_ page: BaselinePage, after: [BenchValue]?, keys: Bool) throws -> (rows: Int, last: [BenchValue]?) {
        let columns = Self.columns
        let (sql, names): (String, [String]) = switch page {
        case .priceAtLeast(let price):
            ("SELECT \(columns) FROM venue v WHERE price >= \(price) \(after == nil ? "" : "AND (price, id) > ($1, $2)") ORDER BY price, id LIMIT 100",
             ["price", "id"])
        case .wordByRating(let word):
            ("SELECT \(columns) FROM venue v WHERE words @@ to_tsquery('simple', '\(word)') "
                + "\(after == nil ? "" : "AND (v.rating, v.id) > ($1, $2)") ORDER BY v.rating, v.id LIMIT 100", ["rating", "id"])
        case .priceAboveByRatingThenTitle(let price):
            ("SELECT \(columns) FROM venue v WHERE price > \(price) \(after == nil ? "" : "AND (v.rating, v.title, v.id) > ($1, $2, $3)") "
                + "ORDER BY v.rating, v.title, v.id LIMIT 100", ["rating", "title", "id"])
        }
        let binds: [any PostgresBinding] = (after ?? []).map { value in
            switch value {
            case .integer(let number): number
            case .real(let number): number
            case .text(let text): text
            }
        }
        guard keys else { return (try connection.readEveryColumn(sql, binds), nil) }
        var rows = 0
        var last: [BenchValue]?
        try connection.eachRow(sql, binds, columns: names) { values in
            rows += 1
            last = values.map { value in
                switch value {
                case let number as Int64: .integer(number)
                case let number as Double: .real(number)
                default: .text(value as? String ?? "")
                }
            }
        }
        return (rows, last)
    }

    func savedSidecar() -> BenchSidecar? {
        guard let body = try? connection.text("SELECT body FROM bench_sidecar WHERE id = 1") else { return nil }
        return try? JSONDecoder().decode(BenchSidecar.self, from: Data(body.utf8))
    }

    func keep(_ sidecar: BenchSidecar) throws {
        let body = String(decoding: try JSONEncoder().encode(sidecar), as: UTF8.self)
        try connection.execute("INSERT INTO bench_sidecar (id, body) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET body = excluded.body", [body])
    }

    func gatherPlannerStatistics() throws { try connection.execute("ANALYZE venue") }

    static let columns = "v.id, v.name, v.title, v.category, v.price, v.rating, v.opened, v.latitude, v.longitude, v.description, v.tags, v.modified"
}
