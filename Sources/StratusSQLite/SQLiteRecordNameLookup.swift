import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The statement of ``SQLiteRecordStorage/find(zoneRowID:name:)`` prepared once, for callers that look up many names.
struct SQLiteRecordNameLookup: RecordNameLookup {
    let statement: Statement
    let db: GRDB.Database

    /// The record named `name` in the zone, if any.
    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try SQLiteRecordStorage.first(of: statement, arguments: [zoneRowID, name])
    }

    /// The records of a zone among `names`, by name, in statements of up to ``namesPerStatement``
    /// names: stepping one statement through a hundred rows costs less than a hundred statements
    /// of one row each (a fetch of 100 records).
    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        try Self.find(zoneRowID: zoneRowID, names: names, in: db)
    }

    static let namesPerStatement = 100

    static func find(zoneRowID: Int64, names: [String], in db: GRDB.Database) throws -> [String: StoredRecord] {
        var found: [String: StoredRecord] = [:]
        found.reserveCapacity(names.count)
        var start = names.startIndex
        while start < names.endIndex {
            let end = min(start + namesPerStatement, names.endIndex)
            let chunk = names[start..<end]
            // One statement per chunk size, kept in the connection's cache like the others.
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let statement = try db.cachedStatement(sql: "SELECT \(SQLiteRecordStorage.columns) FROM record WHERE zone_id = ? AND name IN (\(placeholders))")
            var arguments: [any DatabaseValueConvertible] = [zoneRowID]
            arguments.append(contentsOf: chunk.map { $0 as any DatabaseValueConvertible })
            let cursor = try Int64.fetchCursor(statement, arguments: StatementArguments(arguments))
            while try cursor.next() != nil {
                let record = StoredRecord(statement: statement.sqliteStatement)
                found[record.name] = record
            }
            start = end
        }
        return found
    }
}
