import Foundation
import GRDB
import StratusModel
import StratusCloud

/// A `record` row as the write and read paths use it.
struct StoredRecord {
    var id: Int64
    var zoneRowID: Int64
    var name: String
    var typeID: Int64
    var fieldsBlob: Data
    var changeTag: String
    var sequence: Int64
    var createdAt: Int64
    var createdBy: String
    var modifiedAt: Int64
    var modifiedBy: String
    var parent: String?

    static let columns = "id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent"
    /// `columns` of the record table aliased `r`, for joins.
    static let joinedColumns = columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    /// Reads the `columns` starting at column `offset` of `row`.
    init(row: Row, offset: Int = 0) {
        id = row[offset]
        zoneRowID = row[offset + 1]
        name = row[offset + 2]
        typeID = row[offset + 3]
        fieldsBlob = row[offset + 4]
        changeTag = row[offset + 5]
        sequence = row[offset + 6]
        createdAt = row[offset + 7]
        createdBy = row[offset + 8]
        modifiedAt = row[offset + 9]
        modifiedBy = row[offset + 10]
        parent = row[offset + 11]
    }

    /// Reads the `columns` starting at column `offset` of the row `statement` stands on (it
    /// has just stepped, as a cursor over it does), straight from SQLite: no `Row`, no generic
    /// decoding. The read paths use this; `init(row:offset:)` is for everything else.
    init(statement: SQLiteStatement, offset: Int = 0) {
        let first = CInt(offset)
        id = Int64(sqliteStatement: statement, index: first)
        zoneRowID = Int64(sqliteStatement: statement, index: first + 1)
        name = String(sqliteStatement: statement, index: first + 2)
        typeID = Int64(sqliteStatement: statement, index: first + 3)
        fieldsBlob = Data(sqliteStatement: statement, index: first + 4)
        changeTag = String(sqliteStatement: statement, index: first + 5)
        sequence = Int64(sqliteStatement: statement, index: first + 6)
        createdAt = Int64(sqliteStatement: statement, index: first + 7)
        createdBy = String(sqliteStatement: statement, index: first + 8)
        modifiedAt = Int64(sqliteStatement: statement, index: first + 9)
        modifiedBy = String(sqliteStatement: statement, index: first + 10)
        if case .string(let text) = DatabaseValue(sqliteStatement: statement, index: first + 11).storage {
            parent = text
        } else {
            parent = nil
        }
    }

    func fields() throws -> [String: FieldValue] {
        do {
            return try FieldCoder.decode(fieldsBlob)
        } catch {
            throw unreadable
        }
    }

    /// The fields, decoded by a batch's decoder (faster for many records of one type).
    func fields(using decoder: FieldDecoder) throws -> [String: FieldValue] {
        do {
            return try decoder.decode(fieldsBlob, shape: typeID)
        } catch {
            throw unreadable
        }
    }

    private var unreadable: CloudKitError {
        CloudKitError(.internalError, "Record '\(name)' is stored in a form this build cannot read; the store may be damaged.")
    }

    /// The record as the API hands it out.
    func record(zoneID: ZoneID, typeName: String, desiredKeys: [String]? = nil, decodedFields: [String: FieldValue]? = nil,
                decoder: FieldDecoder? = nil) throws -> StratusCloud.Record {
        var fields: [String: FieldValue]
        if desiredKeys?.isEmpty == true {
            fields = [:]
        } else if let decodedFields {
            fields = decodedFields
        } else if let decoder {
            fields = try self.fields(using: decoder)
        } else {
            fields = try self.fields()
        }
        if let desiredKeys, !desiredKeys.isEmpty {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        return Record(stored: RecordID(recordName: name, zoneID: zoneID), recordType: typeName, fields: fields,
                      changeTag: changeTag, created: FieldValue.date(milliseconds: createdAt), createdBy: createdBy,
                      modified: FieldValue.date(milliseconds: modifiedAt), modifiedBy: modifiedBy,
                      parent: parent.map { Reference(recordName: $0) })
    }

    /// `find(zoneRowID:name:in:)`'s statement prepared once, for callers that look up many names.
    struct NameLookup {
        fileprivate let statement: Statement

        /// The record named `name` in the zone, if any.
        func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
            try StoredRecord.first(of: statement, arguments: [zoneRowID, name])
        }
    }

    static func nameLookup(_ db: StoreTransaction) throws -> NameLookup {
        NameLookup(statement: try db.sqlite.cachedStatement(sql: "SELECT \(columns) FROM record WHERE zone_id = ? AND name = ?"))
    }

    static func find(zoneRowID: Int64, name: String, in db: StoreTransaction) throws -> StoredRecord? {
        try nameLookup(db).find(zoneRowID: zoneRowID, name: name)
    }

    static func find(id: Int64, in db: StoreTransaction) throws -> StoredRecord? {
        let statement = try db.sqlite.cachedStatement(sql: "SELECT \(columns) FROM record WHERE id = ?")
        return try first(of: statement, arguments: [id])
    }

    /// How many records a zone holds, of one type or of every type.
    static func count(zoneRowID: Int64, typeID: Int64? = nil, in db: StoreTransaction) throws -> Int {
        if let typeID {
            return try Int.fetchOne(db.sqlite.cachedStatement(sql: "SELECT count(*) FROM record WHERE zone_id = ? AND type_id = ?"), arguments: [zoneRowID, typeID]) ?? 0
        }
        return try Int.fetchOne(db.sqlite.cachedStatement(sql: "SELECT count(*) FROM record WHERE zone_id = ?"), arguments: [zoneRowID]) ?? 0
    }

    /// How many records of a type there are, in every zone (counted zone by zone, through the
    /// `(zone, type)` index).
    static func count(ofType typeID: Int64, in db: StoreTransaction) throws -> Int {
        try Int64.fetchAll(db.sqlite, sql: "SELECT id FROM zone").reduce(0) { total, zoneRowID in
            total + (try count(zoneRowID: zoneRowID, typeID: typeID, in: db))
        }
    }

    /// Row ids of every record of a type, in every zone, zone by zone in id order.
    static func ids(ofType typeID: Int64, in db: StoreTransaction) throws -> [Int64] {
        var ids: [Int64] = []
        for zoneRowID in try Int64.fetchAll(db.sqlite, sql: "SELECT id FROM zone") {
            ids += try Int64.fetchAll(db.sqlite.cachedStatement(sql: "SELECT id FROM record WHERE zone_id = ? AND type_id = ? ORDER BY id"),
                                      arguments: [zoneRowID, typeID])
        }
        return ids
    }

    /// The highest record row id so far (0 in an empty store).
    static func maxRowID(in db: StoreTransaction) throws -> Int64 {
        try Int64.fetchOne(db.sqlite, sql: "SELECT max(id) FROM record") ?? 0
    }

    /// Hands `body` every record of a zone (of one type, or all), oldest change first.
    static func forEach(zoneRowID: Int64, typeID: Int64? = nil, in db: StoreTransaction, _ body: (StoredRecord) throws -> Void) throws {
        let sql = "SELECT \(columns) FROM record WHERE zone_id = ?" + (typeID == nil ? "" : " AND type_id = ?") + " ORDER BY seq"
        let statement = try db.sqlite.cachedStatement(sql: sql)
        let cursor = try Int64.fetchCursor(statement, arguments: typeID.map { [zoneRowID, $0] } ?? [zoneRowID])
        while try cursor.next() != nil { try body(StoredRecord(statement: statement.sqliteStatement)) }
    }

    /// The parent reference of the record named `name` in the zone (nil: none, or no record).
    static func parentName(zoneRowID: Int64, name: String, in db: StoreTransaction) throws -> String? {
        try String.fetchOne(db.sqlite.cachedStatement(sql: "SELECT parent FROM record WHERE zone_id = ? AND name = ?"), arguments: [zoneRowID, name])
    }

    /// How many records of each type a zone holds, by record type name (types with none left
    /// out): one grouped count over the `(zone, type, modified)` index, never the record rows.
    static func countsByType(zoneRowID: Int64, in db: StoreTransaction) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try Row.fetchAll(db.sqlite.cachedStatement(sql: countsByTypeSQL), arguments: [zoneRowID]) { counts[row[0]] = row[1] }
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
    static func modificationHistogram(zoneRowID: Int64, buckets: Int, in db: StoreTransaction) throws -> [Int] {
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
    fileprivate static func first(of statement: Statement, arguments: StatementArguments) throws -> StoredRecord? {
        // The cursor resets the statement when it goes away: keep it until the row is read.
        let cursor = try Int64.fetchCursor(statement, arguments: arguments)
        return try withExtendedLifetime(cursor) {
            try cursor.next() == nil ? nil : StoredRecord(statement: statement.sqliteStatement)
        }
    }
}
