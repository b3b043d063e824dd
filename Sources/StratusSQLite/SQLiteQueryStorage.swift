import Foundation
import GRDB
import GRDBSQLite
import StratusCloud
import StratusEngine
import StratusModel

/// ``QueryStorage`` on the SQLite store: drivers read `field_value` (values, ranges, Z-order
/// cells), the `record` table's time indexes, and the `record_text` FTS5 table, whose tokens
/// are scoped to a zone and type (``FieldTokens/scopedToken(_:zoneRowID:typeID:)``).
struct SQLiteQueryStorage: QueryStorage {
    let db: GRDB.Database
    let zoneRowID: Int64
    let typeID: Int64
    /// The type's records, counted once (``RecordCountMemo``).
    let recordCount = RecordCountMemo()

    func streamRows(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                    backwards: Bool, _ body: (Int64, IndexValue?, StoredRecord) throws -> Bool) throws {
        let (sql, arguments) = try Self.driverSQL(driver, columns: SQLiteRecordStorage.joinedColumns, descending: descending, afterKey: afterKey,
                                                  afterID: afterID, count: count, backwards: backwards, storage: self)
        try eachRow(sql, arguments) { id, row in
            try body(id, IndexValue(sqliteStatement: row, index: 1), StoredRecord(statement: row, offset: 2))
        }
    }

    func streamFields(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                      selecting selection: FieldSelection, _ body: (Int64, IndexValue?, FieldSelection.Located, StoredRecord?) throws -> Bool) throws {
        let (sql, arguments) = try Self.driverSQL(driver, columns: "r.fields", descending: descending, afterKey: afterKey,
                                                  afterID: afterID, count: count, backwards: false, storage: self)
        var starts: [Int] = []
        try eachRow(sql, arguments) { id, row in
            let blob = UnsafeRawBufferPointer(start: sqlite3_column_blob(row, 2), count: Int(sqlite3_column_bytes(row, 2)))
            do {
                return try body(id, IndexValue(sqliteStatement: row, index: 1), try selection.locate(blob, reusing: &starts), nil)
            } catch is ByteReader.Failure {
                throw CloudKitError(.internalError, "The fields of record row \(id) are stored in a form this build cannot read; the store may be damaged.")
            }
        }
    }

    func streamIndex(fieldID: Int64, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                     _ body: (Int64, IndexValue) throws -> Bool) throws {
        var sql = "SELECT record_id, value FROM field_value WHERE zone_id = ? AND field_id = ?"
        var arguments: StatementArguments = [zoneRowID, fieldID]
        if let afterKey, let afterID {
            sql += " AND (value, record_id) \(descending ? "<" : ">") (?, ?)"
            arguments += [afterKey, afterID]
        }
        let direction = descending ? "DESC" : "ASC"
        sql += " ORDER BY value \(direction), record_id \(direction) LIMIT ?"
        arguments += [count]
        try eachRow(sql, arguments) { id, row in
            guard let key = IndexValue(sqliteStatement: row, index: 1) else { return true }
            return try body(id, key)
        }
    }

    func countIDs(of driver: QueryPlan.Driver, upTo limit: Int) throws -> Int {
        // One value's rows, a single-valued field's range (a row per record) and the type's
        // records are counted inside SQLite; other drivers collect their ids.
        var sql = "SELECT count(*) FROM (SELECT 1 FROM field_value WHERE zone_id = ? AND field_id = ?"
        var arguments: StatementArguments = [zoneRowID]
        switch driver {
        case .typeScan:
            sql = "SELECT count(*) FROM (SELECT 1 FROM record WHERE zone_id = ? AND type_id = ?"
            arguments += [typeID]
        case .values(let fieldID, let keys, false, _) where keys.count == 1:
            sql += " AND value = ?"
            arguments += [fieldID, keys[0]]
        case .range(let fieldID, let lower, let upper, false):
            arguments += [fieldID]
            Self.appendBounds(column: "value", lower: lower, upper: upper, to: &sql, &arguments)
        default:
            return try candidateIDs(of: driver, stoppingAt: limit).count
        }
        if limit == .max {
            // A whole count: SQLite counts the index range itself, without a subquery's rows.
            sql = sql.replacingOccurrences(of: "SELECT count(*) FROM (SELECT 1 FROM", with: "SELECT count(*) FROM")
            return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
        }
        sql += " LIMIT ?)"
        arguments += [limit]
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
    }

    /// Runs a driver statement, handing `body` each row's id (column 0) and the row to read the
    /// rest from, until it returns false.
    private func eachRow(_ sql: String, _ arguments: StatementArguments, _ body: (Int64, SQLiteStatement) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Int64.fetchCursor(statement, arguments: arguments)
        while let id = try rows.next() {
            guard try body(id, statement.sqliteStatement) else { return }
        }
    }

    /// The statement reading a driver's rows in order after a keyset position: the row id, the
    /// index value, then `columns` of the record row (`r`).
    private static func driverSQL(_ driver: QueryPlan.Driver, columns record: String, descending plainDescending: Bool, afterKey: IndexValue?,
                                  afterID: Int64?, count: Int, backwards: Bool, storage: SQLiteQueryStorage) throws -> (String, StatementArguments) {
        let zoneRowID = storage.zoneRowID, typeID = storage.typeID
        let descending = plainDescending != backwards
        let comparison = descending ? "<" : ">"
        let direction = descending ? "DESC" : "ASC"
        // The drivers ordered by row id alone.
        let idComparison = backwards ? "<" : ">"
        let idDirection = backwards ? "DESC" : "ASC"
        var sql: String
        var arguments: StatementArguments
        switch driver {
        case .values(let fieldID, let keys, let folded, _):
            // `folded IS NOT NULL` proves the partial index usable without looking at the bound
            // value, so the statement is not re-prepared for every new key.
            let column = folded ? "folded" : "value"
            sql = "SELECT f.record_id, f.value, \(record) FROM field_value f JOIN record r ON r.id = f.record_id WHERE f.zone_id = ? AND f.field_id = ? AND f.\(column) = ?"
            if folded { sql += " AND f.folded IS NOT NULL" }
            arguments = [zoneRowID, fieldID, keys[0]]
            if let afterID {
                sql += " AND f.record_id \(idComparison) ?"
                arguments += [afterID]
            }
            sql += " ORDER BY f.record_id \(idDirection) LIMIT ?"
        case .range(let fieldID, let lower, let upper, _):
            sql = "SELECT f.record_id, f.value, \(record) FROM field_value f JOIN record r ON r.id = f.record_id WHERE f.zone_id = ? AND f.field_id = ?"
            arguments = [zoneRowID, fieldID]
            Self.appendBounds(column: "f.value", lower: lower, upper: upper, to: &sql, &arguments)
            if let afterKey, let afterID {
                sql += " AND (f.value, f.record_id) \(comparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY f.value \(direction), f.record_id \(direction) LIMIT ?"
        case .systemTime(let time, let lower, let upper):
            let column = Self.column(time)
            sql = "SELECT r.id, r.\(column), \(record) FROM record r WHERE r.zone_id = ? AND r.type_id = ?"
            arguments = [zoneRowID, typeID]
            Self.appendBounds(column: "r.\(column)", lower: lower, upper: upper, to: &sql, &arguments)
            if let afterKey, let afterID {
                sql += " AND (r.\(column), r.id) \(comparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY r.\(column) \(direction), r.id \(direction) LIMIT ?"
        case .text(let tokens, let matchAll):
            sql = "SELECT t.rowid, 0, \(record) FROM record_text t JOIN record r ON r.id = t.rowid WHERE record_text MATCH ?"
            arguments = [storage.textMatch(tokens, matchAll: matchAll)]
            if let afterID {
                sql += " AND t.rowid \(idComparison) ?"
                arguments += [afterID]
            }
            sql += " ORDER BY t.rowid \(idDirection) LIMIT ?"
        case .typeScan:
            sql = "SELECT r.id, r.modified_at, \(record) FROM record r WHERE r.zone_id = ? AND r.type_id = ?"
            arguments = [zoneRowID, typeID]
            if let afterKey, let afterID {
                sql += " AND (r.modified_at, r.id) \(idComparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY r.modified_at \(idDirection), r.id \(idDirection) LIMIT ?"
        case .nothing, .names, .location:
            throw QueryExecutor.staleCursor
        }
        arguments += [count]
        return (sql, arguments)
    }

    func candidateIDs(of driver: QueryPlan.Driver, stoppingAt stop: Int) throws -> Set<Int64> {
        var ids = Set<Int64>()
        func add(_ sql: String, _ arguments: StatementArguments) throws {
            guard ids.count < stop else { return }
            let cursor = try Int64.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let id = try cursor.next() {
                ids.insert(id)
                if ids.count >= stop { return }
            }
        }
        switch driver {
        case .nothing:
            break
        case .names(let names):
            for name in names { try add("SELECT id FROM record WHERE zone_id = ? AND name = ?", [zoneRowID, name]) }
        case .values(let fieldID, let keys, let folded, _):
            for key in keys {
                try add("SELECT record_id FROM field_value WHERE zone_id = ? AND field_id = ? AND \(folded ? "folded = ? AND folded IS NOT NULL" : "value = ?")",
                        [zoneRowID, fieldID, key])
            }
        case .range(let fieldID, let lower, let upper, _):
            var sql = "SELECT record_id FROM field_value WHERE zone_id = ? AND field_id = ?"
            var arguments: StatementArguments = [zoneRowID, fieldID]
            Self.appendBounds(column: "value", lower: lower, upper: upper, to: &sql, &arguments)
            try add(sql, arguments)
        case .systemTime(let time, let lower, let upper):
            var sql = "SELECT id FROM record WHERE zone_id = ? AND type_id = ?"
            var arguments: StatementArguments = [zoneRowID, typeID]
            Self.appendBounds(column: Self.column(time), lower: lower, upper: upper, to: &sql, &arguments)
            try add(sql, arguments)
        case .typeScan:
            try add("SELECT id FROM record WHERE zone_id = ? AND type_id = ?", [zoneRowID, typeID])
        case .text(let tokens, let matchAll):
            try add("SELECT rowid FROM record_text WHERE record_text MATCH ?", [textMatch(tokens, matchAll: matchAll)])
        case .location(let fieldID, let box):
            // Z-order ranges cover at least the box; the distance term is checked on each record.
            let sql = "SELECT record_id FROM field_value WHERE zone_id = ? AND field_id = ? AND value BETWEEN ? AND ?"
            for range in ZOrderCode.ranges(latitudes: box.minLatitude...box.maxLatitude, longitudes: box.longitudes) {
                try add(sql, [zoneRowID, fieldID, range.lowerBound, range.upperBound])
            }
        }
        return ids
    }

    func modificationOrder(after start: (modifiedAt: Int64, id: Int64)?, count: Int, backwards: Bool,
                           lackingField: Int64?) throws -> [(modifiedAt: Int64, id: Int64)] {
        let (comparison, direction) = backwards ? ("<", "DESC") : (">", "ASC")
        var sql = "SELECT modified_at, id FROM record WHERE zone_id = ? AND type_id = ?"
        var arguments: StatementArguments = [zoneRowID, typeID]
        if let start {
            sql += " AND (modified_at, id) \(comparison) (?, ?)"
            arguments += [start.modifiedAt, start.id]
        }
        sql += " ORDER BY modified_at \(direction), id \(direction)"
        // The records that have the field are skipped by their ids, gathered first from its
        // index: SQLite's `NOT IN` built a temporary index of them for each statement, which
        // at a million spilled to a temporary file (a page took 0.7-0.95 s, now 0.3-0.45).
        let having = try lackingField.map { try RowIDs(of: "SELECT record_id FROM field_value WHERE zone_id = ? AND field_id = ?",
                                                       [zoneRowID, $0], in: db) }
        if having == nil {
            sql += " LIMIT ?"
            arguments += [count]
        }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var result: [(modifiedAt: Int64, id: Int64)] = []
        while result.count < count, let row = try rows.next() {
            let id: Int64 = row[1]
            if having?.contains(id) != true { result.append((row[0], id)) }
        }
        return result
    }

    func lackingCount(fieldID: Int64) throws -> (lacking: Int, records: Int) {
        let indexed = try countIDs(of: .range(fieldID: fieldID, lower: nil, upper: nil, isList: false), upTo: .max)
        let records = try recordCount.value { try SQLiteRecordStorage(db: SQLiteTransaction(sqlite: db)).count(zoneRowID: zoneRowID, typeID: typeID) }
        return (max(0, records - indexed), records)
    }

    func record(id: Int64) throws -> StoredRecord? {
        try SQLiteRecordStorage(db: SQLiteTransaction(sqlite: db)).find(id: id)
    }

    private static func column(_ time: QueryPlan.SystemTime) -> String {
        switch time {
        case .created: "created_at"
        case .modified: "modified_at"
        }
    }

    private static func appendBounds(column: String, lower: QueryPlan.Bound?, upper: QueryPlan.Bound?,
                                     to sql: inout String, _ arguments: inout StatementArguments) {
        if let lower {
            sql += " AND \(column) \(lower.inclusive ? ">=" : ">") ?"
            arguments += [lower.value]
        }
        if let upper {
            sql += " AND \(column) \(upper.inclusive ? "<=" : "<") ?"
            arguments += [upper.value]
        }
    }

    /// An FTS5 expression over this zone and type's tokens: `"z4t2xbob" OR "z4t2xsmith"`.
    fileprivate func textMatch(_ tokens: [String], matchAll: Bool) -> String {
        tokens.map { "\"" + FieldTokens.scopedToken($0, zoneRowID: zoneRowID, typeID: typeID).replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: matchAll ? " AND " : " OR ")
    }
}
