import Foundation
import Testing
import StratusModel
@testable import StratusEngine
@testable import StratusPostgres
import StratusTestSupport
import StratusCloud

/// An ordinary save of new records on PostgreSQL looks them up together and writes their
/// `field_value` rows many to a statement, not a statement a record: each is a round trip.
@Suite struct PostgresSaveRoundTripTests {
    @Test func aSaveOfNewRecordsWritesTheirIndexRowsTogether() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Saves")
        try db.modifyRecordZones(saving: [zone])
        func items(_ range: Range<Int>) -> [Record] {
            range.map { index in
                var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
                record["rank"] = .int64(Int64(index))
                record["title"] = .string("item \(index)")
                record["tags"] = .list(.string, [.string("t\(index % 3)"), .string("all")])
                return record
            }
        }
        // The first save grows the schema; the second is the one counted.
        let first = try db.modifyRecords(saving: items(0..<10)).savedRecords()
        let before = backend.statementsSent
        _ = try db.modifyRecords(saving: items(10..<310)).savedRecords()
        let statements = backend.statementsSent - before
        // The records' own rows go in many to a statement, with ids reserved a growing block at
        // a time: a statement a record would be 300 more, and so would looking them up one at a
        // time, or their index rows one statement a record.
        #expect(statements < 40, "saving 300 new records sent \(statements) statements")
        // Each saved record is there once, with the tag and sequence it was answered with.
        let saved = try db.records(for: (0..<310).map { RecordID(recordName: "i\($0)", zoneID: zone) })
        #expect(saved.allSatisfy { (try? $0.result.get()) != nil })
        #expect(try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 400).changes.count == 310)

        // Every index row is there: each field finds exactly its records.
        let ranked = try db.records(matching: Query(recordType: "Item", predicateFormat: "rank >= 300"), inZoneWith: zone, resultsLimit: 100)
        #expect(Set(ranked.records.map(\.recordID.recordName)) == Set((300..<310).map { "i\($0)" }))
        let titled = try db.records(matching: Query(recordType: "Item", predicateFormat: "title == 'item 123'"), inZoneWith: zone, resultsLimit: 10)
        #expect(titled.records.map(\.recordID.recordName) == ["i123"])
        let tagged = try db.indexedCount(matching: Query(recordType: "Item", predicateFormat: "tags CONTAINS 't1'"), inZoneWith: zone)
        #expect(tagged == (0..<310).filter { $0 % 3 == 1 }.count)

        // Records looked up together are replaced under their change tags, their rows moved.
        let changed = first.map { record in
            var record = record
            guard case .int64(let rank)? = record["rank"] else { return record }
            record["rank"] = .int64(1_000 + rank)
            return record
        }
        _ = try db.modifyRecords(saving: changed).savedRecords()
        let moved = try db.records(matching: Query(recordType: "Item", predicateFormat: "rank >= 1000"), inZoneWith: zone, resultsLimit: 100)
        #expect(Set(moved.records.map(\.recordID.recordName)) == Set((0..<10).map { "i\($0)" }))
        #expect(try db.indexedCount(matching: Query(recordType: "Item", predicateFormat: "rank < 10"), inZoneWith: zone) == 0)
    }

    /// A fetch of many records looks each zone's up in one statement, not one a record, and
    /// still answers each ID: found, missing, asked twice, in another zone.
    @Test func aFetchOfManyRecordsLooksThemUpTogether() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zones = [ZoneID(zoneName: "A"), ZoneID(zoneName: "B")]
        try db.modifyRecordZones(saving: zones)
        for zone in zones {
            _ = try db.modifyRecords(saving: (0..<100).map { Record(recordType: "Item", recordID: RecordID(recordName: "i\($0)", zoneID: zone)) }).savedRecords()
        }
        let wanted = (0..<100).map { RecordID(recordName: "i\($0)", zoneID: zones[0]) }
            + [RecordID(recordName: "nope", zoneID: zones[0]), RecordID(recordName: "i5", zoneID: zones[0]), RecordID(recordName: "i7", zoneID: zones[1]),
               RecordID(recordName: "i1", zoneID: ZoneID(zoneName: "Missing"))]
        let before = backend.statementsSent
        let fetched = try db.records(for: wanted)
        let statements = backend.statementsSent - before
        #expect(statements < 20, "fetching 104 records sent \(statements) statements")
        #expect(fetched.map(\.recordID) == wanted)
        #expect(fetched.prefix(100).allSatisfy { (try? $0.result.get()) != nil })
        #expect((try? fetched[100].result.get()) == nil)
        #expect(try fetched[101].result.get().recordID == wanted[101])
        #expect(try fetched[102].result.get().recordID.zoneID == zones[1])
        #expect(throws: CloudKitError.self) { try fetched[103].result.get() }
    }

    /// A page of 100 on an exact index reads its rows in one statement: with the transaction's
    /// own (begin, schema version, zone, commit), five round trips in all.
    @Test func aPageOfAnExactQueryIsOneStatementOfRows() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Pages")
        try db.modifyRecordZones(saving: [zone])
        _ = try db.modifyRecords(saving: (0..<300).map { index in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["kind"] = .string(index % 2 == 0 ? "even" : "odd")
            return record
        }).savedRecords()
        let query = Query(recordType: "Item", predicateFormat: "kind == 'even'")
        _ = try db.records(matching: query, inZoneWith: zone, resultsLimit: 100)   // loads the schema
        let before = backend.statementsSent
        let page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 100)
        let statements = backend.statementsSent - before
        #expect(page.records.count == 100)
        #expect(page.cursor != nil)
        #expect(statements <= 5, "a page of 100 sent \(statements) statements")
        let next = try db.records(continuingMatchFrom: try #require(page.cursor), resultsLimit: 100)
        #expect(next.records.count == 50)
        #expect(next.cursor == nil)
    }

    /// What a read-only server request asks of its store (the environment, a page, the type's
    /// schema, a fetch) in one snapshot costs one transaction and one look at the schema
    /// version, not one of each per read: the same page and fetch on their own cost more.
    @Test func aRequestsReadsInOneSnapshotShareTheTransactionAndTheCatalog() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Requests")
        try db.modifyRecordZones(saving: [zone])
        _ = try db.modifyRecords(saving: (0..<20).map { index in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["kind"] = .string("even")
            return record
        }).savedRecords()
        let query = Query(recordType: "Item", predicateFormat: "kind == 'even'")
        func request() throws -> Int {
            #expect(try store.environment == .development)
            #expect(try db.records(matching: query, inZoneWith: zone, resultsLimit: 10).records.count == 10)
            #expect(try store.recordType(named: "Item")?.fields["kind"] != nil)
            #expect(try db.records(for: [RecordID(recordName: "i3", zoneID: zone)]).count == 1)
            return 0
        }
        _ = try request()   // loads the schema
        var before = backend.statementsSent
        _ = try request()
        let apart = backend.statementsSent - before
        before = backend.statementsSent
        _ = try store.readingOneSnapshot(request)
        let together = backend.statementsSent - before
        // Apart: four transactions (begin, schema version, commit each) around the reads, the
        // zone read with the version where a call names it. Together: one, and the version asked
        // once (the zones then read on their own, as the transaction is open already).
        #expect(together <= apart - 7, "apart \(apart) statements, together \(together)")
    }
}
