import Foundation
import GRDB
import StratusModel
import StratusPredicates

/// Runs a planned query for one page: reads candidates from the driver index, checks every
/// term on each candidate with the evaluator, orders, and stops after `limit` matches.
struct QueryExecutor {
    let db: GRDB.Database
    let zoneRowID: Int64
    let type: SchemaCatalog.TypeEntry
    let query: CompiledQuery
    let plan: QueryPlan
    let limit: Int
    /// What is left to check on each candidate once the driver has done its part.
    let residual: QueryFilter
    /// Whether the caller may see a record (nil: every record), from `AccessGate`.
    var visible: ((StoredRecord) throws -> Bool)?
    /// Decodes the candidates' fields; they are mostly of one shape.
    private let decoder = FieldDecoder()

    init(db: GRDB.Database, zoneRowID: Int64, type: SchemaCatalog.TypeEntry, query: CompiledQuery, plan: QueryPlan, limit: Int) {
        self.db = db
        self.zoneRowID = zoneRowID
        self.type = type
        self.query = query
        self.plan = plan
        self.limit = limit
        residual = plan.residual(of: query.filter)
    }

    /// The page's records and the position to continue from (nil: nothing more matches).
    func run(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        if case .nothing = plan.driver { return ([], nil) }
        if let streaming = try sortIndexInstead(at: position) { return try streaming.run(after: position) }
        if plan.isStreaming && plan.driverIsOrdered { return plan.groupsTies ? try runGrouped(after: position) : try runStreaming(after: position) }
        if query.sorts.isEmpty { return try runCollectedByID(after: position) }
        return try runSorted(after: position)
    }

    /// Candidates the selective term may yield before streaming from the sort index pays:
    /// reading them all costs about that many record loads; streaming costs a page divided by
    /// how many of the type's records match.
    var sortIndexThreshold: Int { max(limit * 20, 2_000) }

    /// The executor streaming from the sort field's index, when the plan has one and the term
    /// driving matches too many records to load and sort (or the cursor came from it).
    func sortIndexInstead(at position: QueryCursor.Position?) throws -> QueryExecutor? {
        guard let streaming = plan.streamingFromSortIndex else { return nil }
        switch position {
        case .sorted? where streaming.groupsTies, nil:
            // Grouped streaming and the in-memory sort give one order and one cursor: each
            // page takes whichever is cheaper now.
            guard try candidateIDs(stoppingAt: sortIndexThreshold).count >= sortIndexThreshold else { return nil }
        case .sorted?, .collected?: return nil
        case .streaming?, .lackingSortField?: break
        }
        var executor = QueryExecutor(db: db, zoneRowID: zoneRowID, type: type, query: query, plan: streaming, limit: limit)
        executor.visible = visible
        return executor
    }

    // MARK: - Streaming: the driver's order is the answer's order

    private func runStreaming(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var cursorKey: DatabaseValue?
        var cursorID: Int64?
        var results: [LoadedRecord] = []
        var last: QueryCursor.Position?
        switch position {
        case nil:
            break
        case .streaming(let key, let id)?:
            cursorKey = key.map(QueryExecutor.databaseValue)
            cursorID = id
        case .lackingSortField(let modifiedAt, let id)?:
            return try runLackingSortField(after: (modifiedAt, id), results: &results, last: &last)
        default:
            throw QueryExecutor.staleCursor
        }
        // Rows are decoded only as they are read, so a generous LIMIT costs nothing unused.
        let chunk = max(limit * 4, 256)
        while true {
            var rowCount = 0
            var done = false
            try streamingRows(afterKey: cursorKey, afterID: cursorID, count: chunk) { id, key, stored in
                rowCount += 1
                // A list holding two values with one folded key yields its record twice in a row.
                if id == cursorID { return true }
                cursorKey = key
                cursorID = id
                guard let record = try matching(stored) else { return true }
                if results.count == limit {
                    done = true
                    return false
                }
                results.append(record)
                last = .streaming(key: QueryExecutor.fieldValue(key), id: id)
                return true
            }
            if done { return (results, last) }
            if rowCount < chunk { break }
        }
        guard plan.appendsRecordsLackingSortField != nil else { return (results, nil) }
        return try runLackingSortField(after: nil, results: &results, last: &last)
    }

    /// The second phase of a sort-index driver: records without the sort field, in modification order.
    private func runLackingSortField(after start: (Int64, Int64)?, results: inout [LoadedRecord],
                                     last: inout QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        guard let sortKey = plan.appendsRecordsLackingSortField else { throw QueryExecutor.staleCursor }
        let exhausted = try walkLackingSortField(sortKey, after: start) { record, modifiedAt, id in
            if results.count == limit { return false }
            results.append(record)
            last = .lackingSortField(modifiedAt: modifiedAt, id: id)
            return true
        }
        return (results, exhausted ? nil : last)
    }

    /// Hands `body` each matching record without the sort field, in modification order (or
    /// backwards) after `start`, until it returns false; true when they ran out.
    func walkLackingSortField(_ sortKey: FieldKey, after start: (Int64, Int64)?, backwards: Bool = false,
                              _ body: (LoadedRecord, _ modifiedAt: Int64, _ id: Int64) throws -> Bool) throws -> Bool {
        var position = start
        let chunk = max(limit * 2, 64)
        let (comparison, direction) = backwards ? ("<", "DESC") : (">", "ASC")
        while true {
            var sql = "SELECT id, modified_at FROM record WHERE zone_id = ? AND type_id = ?"
            var arguments: StatementArguments = [zoneRowID, type.id]
            if let position {
                sql += " AND (modified_at, id) \(comparison) (?, ?)"
                arguments += [position.0, position.1]
            }
            sql += " ORDER BY modified_at \(direction), id \(direction) LIMIT ?"
            arguments += [chunk]
            let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
            for row in rows {
                let id: Int64 = row[0]
                let modifiedAt: Int64 = row[1]
                position = (modifiedAt, id)
                guard let record = try loadMatching(id), record.value(for: sortKey) == nil else { continue }
                if try !body(record, modifiedAt, id) { return false }
            }
            if rows.count < chunk { return true }
        }
    }

    /// Hands the driver's next rows after the keyset position to `body`, each with its record
    /// row joined in, until `body` returns false.
    /// `backwards` reads the driver's order from its end (the result's last page first).
    func streamingRows(afterKey: DatabaseValue?, afterID: Int64?, count: Int, backwards: Bool = false,
                       _ body: (Int64, DatabaseValue, StoredRecord) throws -> Bool) throws {
        let descending = plan.descending != backwards
        let comparison = descending ? "<" : ">"
        let direction = descending ? "DESC" : "ASC"
        // The drivers ordered by row id alone.
        let idComparison = backwards ? "<" : ">"
        let idDirection = backwards ? "DESC" : "ASC"
        let record = StoredRecord.joinedColumns
        var sql: String
        var arguments: StatementArguments
        switch plan.driver {
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
            QueryExecutor.appendBounds(column: "f.value", lower: lower, upper: upper, to: &sql, &arguments)
            if let afterKey, let afterID {
                sql += " AND (f.value, f.record_id) \(comparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY f.value \(direction), f.record_id \(direction) LIMIT ?"
        case .systemTime(let column, let lower, let upper):
            sql = "SELECT r.id, r.\(column), \(record) FROM record r WHERE r.zone_id = ? AND r.type_id = ?"
            arguments = [zoneRowID, type.id]
            QueryExecutor.appendBounds(column: "r.\(column)", lower: lower, upper: upper, to: &sql, &arguments)
            if let afterKey, let afterID {
                sql += " AND (r.\(column), r.id) \(comparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY r.\(column) \(direction), r.id \(direction) LIMIT ?"
        case .text(let match):
            sql = "SELECT t.rowid, 0, \(record) FROM record_text t JOIN record r ON r.id = t.rowid WHERE record_text MATCH ?"
            arguments = [match]
            if let afterID {
                sql += " AND t.rowid \(idComparison) ?"
                arguments += [afterID]
            }
            sql += " ORDER BY t.rowid \(idDirection) LIMIT ?"
        case .typeScan:
            sql = "SELECT r.id, r.modified_at, \(record) FROM record r WHERE r.zone_id = ? AND r.type_id = ?"
            arguments = [zoneRowID, type.id]
            if let afterKey, let afterID {
                sql += " AND (r.modified_at, r.id) \(idComparison) (?, ?)"
                arguments += [afterKey, afterID]
            }
            sql += " ORDER BY r.modified_at \(idDirection), r.id \(idDirection) LIMIT ?"
        default:
            throw QueryExecutor.staleCursor
        }
        arguments += [count]
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Int64.fetchCursor(statement, arguments: arguments)
        let row = statement.sqliteStatement
        while let id = try rows.next() {
            guard try body(id, DatabaseValue(sqliteStatement: row, index: 1), StoredRecord(statement: row, offset: 2)) else { return }
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

    // MARK: - Collected candidates

    private func runCollectedByID(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        var afterID = Int64.min
        if let position {
            guard case .collected(let id) = position else { throw QueryExecutor.staleCursor }
            afterID = id
        }
        let ids = try candidateIDs().filter { $0 > afterID }.sorted()
        var results: [LoadedRecord] = []
        for id in ids {
            guard let record = try loadMatching(id) else { continue }
            if results.count == limit { return (results, .collected(id: results.last!.stored.id)) }
            results.append(record)
        }
        return (results, nil)
    }

    private func runSorted(after position: QueryCursor.Position?) throws -> (records: [LoadedRecord], next: QueryCursor.Position?) {
        let all = try sortedMatches()
        var start = 0
        if let position {
            guard case .sorted(let values, let id) = position, values.count == query.sorts.count else { throw QueryExecutor.staleCursor }
            start = all.firstIndex { precedes(values, id, $0.values, $0.record.stored.id) } ?? all.count
        }
        let page = all[start..<min(start + limit, all.count)]
        let next: QueryCursor.Position? = start + limit < all.count ? page.last.map { .sorted(values: $0.values, id: $0.record.stored.id) } : nil
        return (page.map(\.record), next)
    }

    /// Every match with its sort values, in the query's order.
    func sortedMatches() throws -> [(values: [FieldValue?], record: LoadedRecord)] {
        var all: [(values: [FieldValue?], record: LoadedRecord)] = []
        for id in try candidateIDs() {
            guard let record = try loadMatching(id) else { continue }
            all.append((query.sorts.map(record.sortValue), record))
        }
        all.sort { precedes($0.values, $0.record.stored.id, $1.values, $1.record.stored.id) }
        return all
    }

    /// The query's order: each sort in its direction, records lacking a sort field after those
    /// that have it (in either direction), then row ids.
    func precedes(_ a: [FieldValue?], _ aID: Int64, _ b: [FieldValue?], _ bID: Int64) -> Bool {
        for index in a.indices {
            switch (a[index], b[index]) {
            case (nil, nil): continue
            case (nil, _): return false
            case (_, nil): return true
            case (let x?, let y?):
                let order = SortOrder.compare(x, y)
                if order != 0 { return query.sorts[index].ascending ? order < 0 : order > 0 }
            }
        }
        return aID < bID
    }

    /// Every candidate row id the driver yields, each once (or the first `stop` of them).
    func candidateIDs(stoppingAt stop: Int = .max) throws -> Set<Int64> {
        var ids = Set<Int64>()
        func add(_ sql: String, _ arguments: StatementArguments) throws {
            guard ids.count < stop else { return }
            let cursor = try Int64.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let id = try cursor.next() {
                ids.insert(id)
                if ids.count >= stop { return }
            }
        }
        switch plan.driver {
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
            QueryExecutor.appendBounds(column: "value", lower: lower, upper: upper, to: &sql, &arguments)
            try add(sql, arguments)
        case .systemTime(let column, let lower, let upper):
            var sql = "SELECT id FROM record WHERE zone_id = ? AND type_id = ?"
            var arguments: StatementArguments = [zoneRowID, type.id]
            QueryExecutor.appendBounds(column: column, lower: lower, upper: upper, to: &sql, &arguments)
            try add(sql, arguments)
        case .typeScan:
            try add("SELECT id FROM record WHERE zone_id = ? AND type_id = ?", [zoneRowID, type.id])
        case .text(let match):
            try add("SELECT rowid FROM record_text WHERE record_text MATCH ?", [match])
        case .location(let fieldID, let box):
            // Z-order ranges cover at least the box; the distance term is checked on each record.
            let sql = "SELECT record_id FROM field_value WHERE zone_id = ? AND field_id = ? AND value BETWEEN ? AND ?"
            for range in ZOrderCode.ranges(latitudes: box.minLatitude...box.maxLatitude, longitudes: box.longitudes) {
                try add(sql, [zoneRowID, fieldID, range.lowerBound, range.upperBound])
            }
        }
        return ids
    }

    /// The record with row id `id` when it is of the query's type and zone and matches.
    func loadMatching(_ id: Int64) throws -> LoadedRecord? {
        guard let stored = try StoredRecord.find(id: id, in: db) else { return nil }
        return try matching(stored)
    }

    func matching(_ stored: StoredRecord) throws -> LoadedRecord? {
        guard stored.zoneRowID == zoneRowID, stored.typeID == type.id else { return nil }
        if let visible, try !visible(stored) { return nil }
        let record = LoadedRecord(stored: stored, fields: try stored.fields(using: decoder))
        return residual.terms.isEmpty || residual.matches(record) ? record : nil
    }

    static let staleCursor = CloudKitError(.invalidArguments, "The query cursor no longer fits the store's schema; run the query again without a cursor.")

    static func fieldValue(_ value: DatabaseValue) -> FieldValue? {
        switch value.storage {
        case .int64(let number): return .int64(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        default: return nil
        }
    }

    static func databaseValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .int64(let number): return number.databaseValue
        case .double(let number): return number.databaseValue
        case .string(let text): return text.databaseValue
        default: return .null
        }
    }
}
