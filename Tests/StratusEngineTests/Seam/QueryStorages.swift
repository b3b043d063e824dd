import StratusCloud
@testable import StratusEngine
@testable import StratusSQLite
import StratusMemoryStore
import StratusTestSupport
import Testing

/// Both implementations of the query seam over one zone's records of one type, inside a read
/// of the store: SQLite's, and the in-memory one built from the same rows.
struct QueryStorages {
    let type: SchemaCatalog.TypeEntry
    let zoneRowID: Int64
    let sqlite: SQLiteQueryStorage
    let memory: MemoryQueryStorage

    /// Runs `body` with the storages of `typeName` in `zone` of `temp`'s private database.
    static func read<T>(_ temp: TemporaryStore, zone: ZoneID, type typeName: String, _ body: (QueryStorages) throws -> T) throws -> T {
        try temp.store.read { db in
            let catalog = try temp.store.catalog(db)
            let type = try #require(catalog.type(named: typeName))
            let zoneRow = try AccessGate(temp.privateDB, db: db, catalog: catalog).zone(zone)
            var zoneRecords: [StoredRecord] = []
            try db.records.forEach(zoneRowID: zoneRow.id) { zoneRecords.append($0) }
            return try body(QueryStorages(type: type, zoneRowID: zoneRow.id, sqlite: SQLiteQueryStorage(db: db.sqlite, zoneRowID: zoneRow.id, typeID: type.id),
                                          memory: try MemoryQueryStorage(zoneRecords: zoneRecords, type: type)))
        }
    }
}

extension QueryExecutor {
    /// Every page's record names, from cursor position to cursor position (100 pages at most),
    /// and the result's last page read from its end.
    func pagesAndTail() throws -> (pages: [[String]], tail: [String]) {
        var pages: [[String]] = []
        var position: QueryCursor.Position?
        repeat {
            let (page, next) = try run(after: position)
            pages.append(page.map(\.stored.name))
            position = next
        } while position != nil && pages.count < 100
        return (pages, try runTail().map(\.stored.name))
    }
}
