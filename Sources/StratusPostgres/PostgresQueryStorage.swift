import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// ``QueryStorage`` on a PostgreSQL store: each driver is one statement on an index
/// (``PostgresDriverStatement``) read from a keyset position, a few rows at a time, so a page
/// reads about a page's rows whatever the zone holds; counts are `count(*)` on the index.
struct PostgresQueryStorage: QueryStorage {
    let db: PostgresTransaction
    let zoneRowID: Int64
    let typeID: Int64
    /// The type's records, counted once (``RecordCountMemo``).
    let recordCount = RecordCountMemo()

    /// Rows asked for first, and then four times as many each time, up to what the engine
    /// allowed: a page of 100 and the row after it in one statement even when a filter is
    /// rechecked on each row (the engine then allows a few pages' rows), since each statement is
    /// a round trip and a row read but not used costs far less.
    static let firstBatch = 128

    private var statements: PostgresDriverStatement { PostgresDriverStatement(zoneRowID: zoneRowID, typeID: typeID) }

    func streamRows(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                    backwards: Bool, _ body: (Int64, IndexValue?, StoredRecord) throws -> Bool) throws {
        var position = (key: afterKey, id: afterID)
        var left = count
        var batch = min(count, Self.firstBatch)
        while left > 0 {
            let asked = min(batch, left)
            let statement = try statements.rows(of: driver, descending: descending, afterKey: position.key, afterID: position.id,
                                                count: asked, backwards: backwards)
            let rows = try db.link.rows(statement.sql, statement.binds)
            for row in rows {
                let record = try PostgresRecordStorage.record(row)
                let key = try Self.key(row, at: PostgresDriverStatement.keyColumn)
                position = (key, record.id)
                guard try body(record.id, key, record) else { return }
            }
            guard rows.count == asked else { return }
            left -= asked
            batch *= 4
        }
    }

    func streamFields(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                      selecting selection: FieldSelection, _ body: (Int64, IndexValue?, FieldSelection.Located, StoredRecord?) throws -> Bool) throws {
        var starts: [Int] = []
        try streamRows(of: driver, descending: descending, afterKey: afterKey, afterID: afterID, count: count, backwards: false) { id, key, record in
            try record.fieldsBlob.withUnsafeBytes { blob in
                let located: FieldSelection.Located
                do {
                    located = try selection.locate(blob, reusing: &starts)
                } catch is ByteReader.Failure {
                    throw CloudKitError(.internalError, "The fields of record row \(id) are stored in a form this build cannot read; the store may be damaged.")
                }
                return try body(id, key, located, record)
            }
        }
    }

    func streamIndex(fieldID: Int64, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                     _ body: (Int64, IndexValue) throws -> Bool) throws {
        let direction = descending ? "DESC" : "ASC"
        var statement = PostgresStatement("SELECT f.record_id, \(PostgresIndexColumns.selected("f")) FROM field_value f")
        statements.appendField(fieldID, to: &statement)
        if let afterKey, let afterID {
            guard let key = PostgresIndexColumns(afterKey) else { throw QueryExecutor.staleCursor }
            statement.append(" AND \(PostgresIndexColumns.key("f", withID: true)) \(descending ? "<" : ">") \(statement.key(key, id: afterID))")
        }
        statement.append(" ORDER BY f.is_text \(direction), f.number \(direction), f.text \(direction), f.record_id \(direction)")
        statement.append(" LIMIT \(statement.bind(count))")
        for row in try db.link.rows(statement.sql, statement.binds) {
            guard let key = try Self.key(row, at: 1) else { continue }
            guard try body(try row.int(0), key) else { return }
        }
    }

    func countIDs(of driver: QueryPlan.Driver, upTo limit: Int) throws -> Int {
        // One value's rows, a single-valued field's range (a row per record) and the type's
        // records are counted in PostgreSQL; other drivers collect their ids.
        var statement = PostgresStatement("SELECT 1 FROM field_value f")
        switch driver {
        case .typeScan:
            statement = PostgresStatement("SELECT 1 FROM record r")
            statement.append(" WHERE r.zone_id = \(statement.bind(zoneRowID)) AND r.type_id = \(statement.bind(typeID))")
        case .values(let fieldID, let keys, false, _) where keys.count == 1:
            statements.appendField(fieldID, to: &statement)
            statements.appendEquals(keys[0], folded: false, to: &statement)
        case .range(let fieldID, let lower, let upper, false):
            statements.appendField(fieldID, to: &statement)
            PostgresDriverStatement.appendBounds(lower: lower, upper: upper, to: &statement)
        default:
            return try candidateIDs(of: driver, stoppingAt: limit).count
        }
        if limit != .max { statement.append(" LIMIT \(statement.bind(limit))") }
        statement.sql = "SELECT count(*) FROM (\(statement.sql)) AS counted"
        return Int(try db.link.integer(statement.sql, statement.binds) ?? 0)
    }

    func candidateIDs(of driver: QueryPlan.Driver, stoppingAt stop: Int) throws -> Set<Int64> {
        var ids = Set<Int64>()
        /// Adds the ids `statement` selects (its first column), no more than `stop` in all.
        func add(_ statement: PostgresStatement) throws {
            guard ids.count < stop else { return }
            var statement = statement
            if stop != .max { statement.append(" LIMIT \(statement.bind(stop - ids.count))") }
            for row in try db.link.rows(statement.sql, statement.binds) {
                ids.insert(try row.int(0))
                if ids.count >= stop { return }
            }
        }
        func fieldRows(_ fieldID: Int64) -> PostgresStatement {
            var statement = PostgresStatement("SELECT f.record_id FROM field_value f")
            statements.appendField(fieldID, to: &statement)
            return statement
        }
        func typeRows() -> PostgresStatement {
            var statement = PostgresStatement("SELECT r.id FROM record r")
            statement.append(" WHERE r.zone_id = \(statement.bind(zoneRowID)) AND r.type_id = \(statement.bind(typeID))")
            return statement
        }
        switch driver {
        case .nothing:
            break
        case .names(let names):
            var statement = PostgresStatement("SELECT id FROM record")
            statement.append(" WHERE zone_id = \(statement.bind(zoneRowID)) AND name = ANY(\(statement.bind(names)))")
            try add(statement)
        case .values(let fieldID, let keys, let folded, _):
            for key in keys {
                var statement = fieldRows(fieldID)
                statements.appendEquals(key, folded: folded, to: &statement)
                try add(statement)
            }
        case .range(let fieldID, let lower, let upper, _):
            var statement = fieldRows(fieldID)
            PostgresDriverStatement.appendBounds(lower: lower, upper: upper, to: &statement)
            try add(statement)
        case .systemTime(let time, let lower, let upper):
            var statement = typeRows()
            try statements.appendTimeBounds("r." + PostgresDriverStatement.column(time), lower: lower, upper: upper, to: &statement)
            try add(statement)
        case .typeScan:
            try add(typeRows())
        case .text(let tokens, let matchAll):
            var statement = typeRows()
            statements.appendTokens(tokens, matchAll: matchAll, to: &statement)
            try add(statement)
        case .location(let fieldID, let box):
            // Z-order ranges cover at least the box; the distance term is checked on each record.
            let ranges = ZOrderCode.ranges(latitudes: box.minLatitude...box.maxLatitude, longitudes: box.longitudes)
            guard !ranges.isEmpty else { break }
            var statement = fieldRows(fieldID)
            let within = ranges.map { range in
                "f.number BETWEEN \(statement.bind(String(range.lowerBound)))::numeric AND \(statement.bind(String(range.upperBound)))::numeric"
            }
            statement.append(" AND f.is_text = false AND (\(within.joined(separator: " OR ")))")
            try add(statement)
        }
        return ids
    }

    func modificationOrder(after start: (modifiedAt: Int64, id: Int64)?, count: Int, backwards: Bool,
                           lackingField: Int64?) throws -> [(modifiedAt: Int64, id: Int64)] {
        let (comparison, direction) = backwards ? ("<", "DESC") : (">", "ASC")
        var statement = PostgresStatement("SELECT r.modified_at, r.id FROM record r")
        statement.append(" WHERE r.zone_id = \(statement.bind(zoneRowID)) AND r.type_id = \(statement.bind(typeID))")
        if let start {
            statement.append(" AND (r.modified_at, r.id) \(comparison) (\(statement.bind(start.modifiedAt)), \(statement.bind(start.id)))")
        }
        if let lackingField {
            statement.append(" AND NOT EXISTS (SELECT 1 FROM field_value f WHERE f.record_id = r.id AND f.field_id = \(statement.bind(lackingField)))")
        }
        statement.append(" ORDER BY r.modified_at \(direction), r.id \(direction) LIMIT \(statement.bind(count))")
        return try db.link.rows(statement.sql, statement.binds).map { (try $0.int(0), try $0.int(1)) }
    }

    func record(id: Int64) throws -> StoredRecord? {
        try PostgresRecordStorage(db: db).find(id: id)
    }

    func records(ids: [Int64]) throws -> [Int64: StoredRecord] {
        try PostgresRecordStorage(db: db).find(ids: ids)
    }

    /// A record read whole crosses the connection with its fields (most of a kilobyte at the
    /// bench's venues), where an index row is an id and a value.
    var wholeRecordCost: Int { 16 }

    func lackingCount(fieldID: Int64) throws -> (lacking: Int, records: Int) {
        let indexed = try countIDs(of: .range(fieldID: fieldID, lower: nil, upper: nil, isList: false), upTo: .max)
        let records = try recordCount.value { try PostgresRecordStorage(db: db).count(zoneRowID: zoneRowID, typeID: typeID) }
        return (max(0, records - indexed), records)
    }

    /// The index value in the four columns from `column` on (``PostgresIndexColumns/selected(_:)``).
    private static func key(_ row: PostgresRowReader, at column: Int) throws -> IndexValue? {
        PostgresIndexColumns.value(isText: try row.bool(column), number: try row.string(column + 1), text: try row.string(column + 2),
                                   isReal: try row.bool(column + 3))
    }
}
