import Foundation
import Testing
import StratusModel
@testable import StratusEngine
@testable import StratusPostgres
import StratusSQLite
import StratusStores
import StratusTestSupport
import StratusCloud

/// A bulk write into PostgreSQL (an import, a bulk fill, a copy) ends, once committed, with
/// `ANALYZE` of the tables it filled, so the first queries after it are planned with
/// statistics rather than blind until autovacuum gets there. `last_analyze` is set by an
/// explicit `ANALYZE` only, never by autovacuum, so these tests cannot pass on its work.
@Suite struct PostgresPlannerStatisticsTests {
    private func items(_ range: Range<Int>, zone: ZoneID) -> [Record] {
        range.map { index in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["rank"] = .int64(Int64(index))
            return record
        }
    }

    /// The record tables of the store at `url` that an explicit ANALYZE has reached.
    private func analyzedTables(_ url: String) throws -> Set<String> {
        let schema = try PostgresLocation(url: url).schema
        let connection = try PostgresFloorConnection(url: url, schema: schema)
        var names: Set<String> = []
        _ = try connection.eachText("""
            SELECT 0::bigint, relname::text FROM pg_stat_user_tables
            WHERE schemaname = $1 AND relname IN ('record', 'field_value', 'tombstone') AND last_analyze IS NOT NULL
            """, [schema]) { _, name in names.insert(name) }
        return names
    }

    /// A new PostgreSQL store with one zone in its private database.
    private func newStore(zone name: String) throws -> (url: String, db: CloudDatabase, zone: ZoneID) {
        let url = try TestPostgres.freshStoreURL()
        let db = try Store.postgres(url, creating: true).database(.private)
        let zone = ZoneID(zoneName: name)
        try db.modifyRecordZones(saving: [zone])
        return (url, db, zone)
    }

    /// An import of many records; one of a few (a pull's page) leaves it to its caller.
    @Test func anImportLeavesItsTablesAnalyzed() throws {
        let (url, db, zone) = try newStore(zone: "Imported")
        defer { TestPostgres.drop(url) }
        // An ordinary save leaves statistics to autovacuum.
        _ = try db.modifyRecords(saving: items(0..<3, zone: zone)).savedRecords()
        #expect(try db.importRecords(items(3..<203, zone: zone)) == 200)
        #expect(try analyzedTables(url).isEmpty)
        let many = RecordImporter.statisticsAfter
        #expect(try db.importRecords(items(1_000..<(1_000 + many), zone: zone)) == many)
        #expect(try analyzedTables(url) == ["record", "field_value", "tombstone"])
    }

    @Test func aBulkFillLeavesItsTablesAnalyzed() throws {
        let (url, db, zone) = try newStore(zone: "Filled")
        defer { TestPostgres.drop(url) }
        try db.writeInBulk(itemsPerTransaction: 100) { writer in
            _ = try writer.modifyRecords(saving: items(0..<300, zone: zone))
        }
        #expect(try analyzedTables(url) == ["record", "field_value", "tombstone"])
        #expect(try db.records(matching: Query(recordType: "Item", predicateFormat: "rank >= 290"), inZoneWith: zone, resultsLimit: 50).records.count == 10)
    }

    @Test func aCopyIntoPostgreSQLLeavesItsTablesAnalyzed() throws {
        let folder = try TemporaryDirectory("statistics-copy")
        defer { folder.remove() }
        let source = folder.path("source.sqlite")
        let zone = ZoneID(zoneName: "Copied")
        do {
            let store = try Store(path: source)
            try store.database(.private).modifyRecordZones(saving: [zone])
            _ = try store.database(.private).modifyRecords(saving: items(0..<50, zone: zone)).savedRecords()
        }
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        try StoreCopier.copy(from: source, to: url)
        #expect(try analyzedTables(url) == ["record", "field_value", "tombstone"])
    }
}
