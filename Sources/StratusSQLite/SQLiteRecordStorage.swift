import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// Records and their index rows in SQLite: the `record` table's reads here; its writes through
/// ``RecordRowWriter`` and ``RecordWriter`` (with ``RecordIndexer`` and ``IndexRowBuffer``), the
/// one place each is written.
struct SQLiteRecordStorage: RecordStorage {
    let db: SQLiteTransaction

    static let columns = "id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent"
    /// `columns` of the record table aliased `r`, for joins.
    static let joinedColumns = columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    func nameLookup() throws -> any RecordNameLookup {
        SQLiteRecordNameLookup(statement: try db.sqlite.cachedStatement(sql: "SELECT \(Self.columns) FROM record WHERE zone_id = ? AND name = ?"), db: db.sqlite)
    }

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try nameLookup().find(zoneRowID: zoneRowID, name: name)
    }

    func find(id: Int64) throws -> StoredRecord? {
        let statement = try db.sqlite.cachedStatement(sql: "SELECT \(Self.columns) FROM record WHERE id = ?")
        return try Self.first(of: statement, arguments: [id])
    }

    /// How many records a zone holds, of one type or of every type.
    func count(zoneRowID: Int64, typeID: Int64?) throws -> Int {
        if let typeID {
            return try Int.fetchOne(db.sqlite.cachedStatement(sql: "SELECT count(*) FROM record WHERE zone_id = ? AND type_id = ?"), arguments: [zoneRowID, typeID]) ?? 0
        }
        return try Int.fetchOne(db.sqlite.cachedStatement(sql: "SELECT count(*) FROM record WHERE zone_id = ?"), arguments: [zoneRowID]) ?? 0
    }

    /// How many records of a type there are, in every zone (counted zone by zone, through the
    /// `(zone, type)` index).
    func count(ofType typeID: Int64) throws -> Int {
        try Int64.fetchAll(db.sqlite, sql: "SELECT id FROM zone").reduce(0) { total, zoneRowID in
            total + (try count(zoneRowID: zoneRowID, typeID: typeID))
        }
    }

    /// Row ids of every record of a type, in every zone, zone by zone in id order.
    func ids(ofType typeID: Int64) throws -> [Int64] {
        var ids: [Int64] = []
        for zoneRowID in try Int64.fetchAll(db.sqlite, sql: "SELECT id FROM zone") {
            ids += try Int64.fetchAll(db.sqlite.cachedStatement(sql: "SELECT id FROM record WHERE zone_id = ? AND type_id = ? ORDER BY id"),
                                      arguments: [zoneRowID, typeID])
        }
        return ids
    }

    /// The highest record row id so far (0 in an empty store).
    func maxRowID() throws -> Int64 {
        try Int64.fetchOne(db.sqlite, sql: "SELECT max(id) FROM record") ?? 0
    }

    /// Hands `body` every record of a zone (of one type, or all), oldest change first.
    /// The records of a zone among `names`, by name, a hundred names to a statement.
    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        try SQLiteRecordNameLookup.find(zoneRowID: zoneRowID, names: names, in: db.sqlite)
    }

    func forEach(zoneRowID: Int64, typeID: Int64?, _ body: (StoredRecord) throws -> Void) throws {
        let sql = "SELECT \(Self.columns) FROM record WHERE zone_id = ?" + (typeID == nil ? "" : " AND type_id = ?") + " ORDER BY seq"
        let statement = try db.sqlite.cachedStatement(sql: sql)
        let cursor = try Int64.fetchCursor(statement, arguments: typeID.map { [zoneRowID, $0] } ?? [zoneRowID])
        while try cursor.next() != nil { try body(StoredRecord(statement: statement.sqliteStatement)) }
    }

    /// The parent reference of the record named `name` in the zone (nil: none, or no record).
    func parentName(zoneRowID: Int64, name: String) throws -> String? {
        try String.fetchOne(db.sqlite.cachedStatement(sql: "SELECT parent FROM record WHERE zone_id = ? AND name = ?"), arguments: [zoneRowID, name])
    }

    /// How many records of each type a zone holds, by record type name (types with none left
    /// out): one grouped count over the `(zone, type, modified)` index, never the record rows.
    func countsByType(zoneRowID: Int64) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try Row.fetchAll(db.sqlite.cachedStatement(sql: Self.countsByTypeSQL), arguments: [zoneRowID]) { counts[row[0]] = row[1] }
        return counts
    }

    /// The statement of `countsByType` (a test checks its query plan).
    static let countsByTypeSQL = """
        SELECT record_type.name, counts.n FROM
            (SELECT type_id, count(*) AS n FROM record WHERE zone_id = ? GROUP BY type_id) AS counts
        JOIN record_type ON record_type.id = counts.type_id
        """

    /// How many of a zone's records were last changed in each of `buckets` equal slices from its
    /// first change to its last (empty for an empty zone): one grouped pass over an index.
    func modificationHistogram(zoneRowID: Int64, buckets: Int) throws -> [Int] {
        let range = try Row.fetchOne(db.sqlite, sql: "SELECT min(modified_at), max(modified_at) FROM record WHERE zone_id = ?", arguments: [zoneRowID])
        guard let low: Int64 = range?[0], let high: Int64 = range?[1] else { return [] }
        var counts = [Int](repeating: 0, count: buckets)
        let span = max(1, high - low + 1)
        let rows = try Row.fetchAll(db.sqlite, sql: """
            SELECT (modified_at - ?) * ? / ?, count(*) FROM record WHERE zone_id = ? GROUP BY 1
            """, arguments: [low, buckets, span, zoneRowID])
        for row in rows {
            let bucket: Int = row[0]
            counts[min(max(0, bucket), buckets - 1)] += row[1] as Int
        }
        return counts
    }

    /// The first row of a statement selecting `columns`.
    static func first(of statement: Statement, arguments: StatementArguments) throws -> StoredRecord? {
        // The cursor resets the statement when it goes away: keep it until the row is read.
        let cursor = try Int64.fetchCursor(statement, arguments: arguments)
        return try withExtendedLifetime(cursor) {
            try cursor.next() == nil ? nil : StoredRecord(statement: statement.sqliteStatement)
        }
    }

    func referencingSources(zoneRowID: Int64, target: String) throws -> [Int64] {
        try Int64.fetchAll(db.sqlite.cachedStatement(sql: "SELECT source_id FROM reference_edge WHERE zone_id = ? AND target = ?"),
                           arguments: [zoneRowID, target])
    }

    func queryStorage(zoneRowID: Int64, type: SchemaCatalog.TypeEntry) throws -> any QueryStorage {
        SQLiteQueryStorage(db, zoneRowID: zoneRowID, typeID: type.id)
    }

    // MARK: Writing

    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)?, clearingTombstone: Bool) throws -> Int64? {
        try RecordWriter(db: db).insert(row, fields: fields, tokens: tokens, type: type, buffer: buffer, clearingTombstone: clearingTombstone)
    }

    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]?, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)?) throws {
        try RecordWriter(db: db).replace(existing, oldFields: oldFields, oldType: oldType, update: update, fields: fields, tokens: tokens,
                                         type: type, buffer: buffer)
    }

    func delete(_ victim: StoredRecord, catalog: SchemaCatalog, sequence: Int64) throws {
        try RecordWriter(db: db).delete(victim, catalog: catalog, sequence: sequence)
    }

    func clearTombstone(of row: RecordRow) throws {
        try RecordRowWriter(db: db).clearTombstone(of: row)
    }

    func touch(zoneRowID: Int64, name: String, changeTag: String, sequence: Int64, modifiedAt: Int64) throws {
        try RecordRowWriter(db: db).touch(zoneRowID: zoneRowID, name: name, changeTag: changeTag, sequence: sequence, modifiedAt: modifiedAt)
    }

    // MARK: Bulk writes

    func makeIndexBuffer(limit: Int) -> any IndexRowBuffering {
        IndexRowBuffer(db: db, limit: limit)
    }

    func makeBulkInserter() throws -> any BulkRecordInserting {
        let writer = RecordRowWriter(db: db)
        return SQLiteBulkRecordInserter(writer: writer, statement: try writer.manyRowsInsert())
    }

    func indexer(zoneRowID: Int64, type: SchemaCatalog.TypeEntry, buffer: any IndexRowBuffering) -> any RecordIndexing {
        RecordIndexer(db: db, zoneRowID: zoneRowID, type: type, buffer: buffer as? IndexRowBuffer)
    }
}

extension StoredRecord {
    /// Reads ``SQLiteRecordStorage/columns`` starting at column `offset` of `row`.
    init(row: Row, offset: Int = 0) {
        self.init(id: row[offset], zoneRowID: row[offset + 1], name: row[offset + 2], typeID: row[offset + 3], fieldsBlob: row[offset + 4], changeTag: row[offset + 5], sequence: row[offset + 6], createdAt: row[offset + 7], createdBy: row[offset + 8], modifiedAt: row[offset + 9], modifiedBy: row[offset + 10], parent: row[offset + 11])
    }

    /// Reads ``SQLiteRecordStorage/columns`` starting at column `offset` of the row `statement` stands on (it
    /// has just stepped, as a cursor over it does), straight from SQLite: no `Row`, no generic
    /// decoding. The read paths use this; `init(row:offset:)` is for everything else.
    init(statement: SQLiteStatement, offset: Int = 0) {
        let first = CInt(offset)
        var parent: String?
        if case .string(let text) = DatabaseValue(sqliteStatement: statement, index: first + 11).storage { parent = text }
        self.init(id: Int64(sqliteStatement: statement, index: first), zoneRowID: Int64(sqliteStatement: statement, index: first + 1),
                  name: String(sqliteStatement: statement, index: first + 2), typeID: Int64(sqliteStatement: statement, index: first + 3),
                  fieldsBlob: Data(sqliteStatement: statement, index: first + 4), changeTag: String(sqliteStatement: statement, index: first + 5),
                  sequence: Int64(sqliteStatement: statement, index: first + 6), createdAt: Int64(sqliteStatement: statement, index: first + 7),
                  createdBy: String(sqliteStatement: statement, index: first + 8), modifiedAt: Int64(sqliteStatement: statement, index: first + 9),
                  modifiedBy: String(sqliteStatement: statement, index: first + 10), parent: parent)
    }
}
