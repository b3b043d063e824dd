import Foundation
import StratusCloud
import StratusPredicates
import StratusEngine
@testable import StratusPostgres
import StratusTestSupport
import Testing

/// A PostgreSQL store made by an earlier Stratus is brought to this format when it opens; one
/// made by a newer Stratus is refused, saying so.
@Suite struct PostgresUpgradeTests {
    @Test func anEarlierStoreIsUpgradedAndANewerOneRefused() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let location = try PostgresLocation(url: url)
        do {
            let store = try Store.postgres(url, creating: true)
            try store.appendToRequestLog([Self.entry("before")])
        }
        // As the first PostgreSQL stores were: no table of request bodies.
        try Self.run(location, "DROP TABLE request_body;\nUPDATE store_info SET format_version = 1")
        let upgraded = try Store.postgres(url, creating: false)
        try upgraded.appendToRequestLog([Self.entry("after", bodies: RequestBodies(request: "{}", response: "東京"))])
        let last = try #require(try upgraded.requestLog().last)
        #expect(last.endpoint == "after")
        #expect(try upgraded.requestBodies(of: last.id)?.response == "東京")
        #expect(try upgraded.requestLog().map(\.endpoint) == ["before", "after"], "the rows it had are kept")

        try Self.run(location, "UPDATE store_info SET format_version = 99")
        #expect {
            _ = try Store.postgres(url, creating: false)
        } throws: { error in
            (error as? CloudKitError)?.code == .incompatibleVersion && "\(error)".contains("newer Stratus")
        }
    }

    /// A store of format 2 (before `field_value`) gets its records' index rows and tokens
    /// when it opens, in one transaction, and answers queries from them as before.
    @Test func aStoreBeforeTheFieldIndexGetsOneOnUpgrade() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let location = try PostgresLocation(url: url)
        let zone = ZoneID(zoneName: "Kept")
        let sorted = Query(recordType: "Item", predicateFormat: "rank >= 10 AND tags CONTAINS 'Blue'", sortDescriptors: [QuerySort("rank", ascending: false)])
        let words = Query(recordType: "Item", predicateFormat: "self CONTAINS 'harbour'")
        func answers(_ store: Store) throws -> (sorted: [String], words: Set<String>) {
            let db = store.database(.private)
            var page = try db.records(matching: sorted, inZoneWith: zone, resultsLimit: 7)
            var names = page.records.map(\.recordName)
            while let cursor = page.cursor {
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: 7)
                names += page.records.map(\.recordName)
            }
            return (names, Set(try db.records(matching: words, inZoneWith: zone, resultsLimit: 100).records.map(\.recordName)))
        }
        let before: (sorted: [String], words: Set<String>)
        let indexRows: Int64?
        do {
            let store = try Store.postgres(url, creating: true)
            let db = store.database(.private)
            try db.modifyRecordZones(saving: [zone])
            _ = try db.modifyRecords(saving: (0..<60).map { index in
                var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
                record["rank"] = .int64(Int64(index))
                record["tags"] = .list(.string, index % 3 == 0 ? [.string("Blue"), .string("red")] : [.string("red")])
                record["note"] = .string(index % 4 == 0 ? "the harbour" : "a field")
                return record
            }).savedRecords()
            before = try answers(store)
            indexRows = try Self.count(location, "SELECT count(*) FROM field_value")
        }
        #expect(before.sorted.count == 16 && before.words.count == 15)
        #expect((indexRows ?? 0) > 60)
        // As format 2 left a store: no field index, and tokens it had not kept up.
        try Self.run(location, "DROP TABLE field_value;\nDROP INDEX record_by_created;\nUPDATE record SET tokens = '{}';\nUPDATE store_info SET format_version = 2")
        let upgraded = try Store.postgres(url, creating: false)
        #expect(try Self.count(location, "SELECT format_version FROM store_info") == 3)
        #expect(try Self.count(location, "SELECT count(*) FROM field_value") == indexRows, "every record's index rows are written again")
        let after = try answers(upgraded)
        #expect(after.sorted == before.sorted)
        #expect(after.words == before.words)
    }

    static func count(_ location: PostgresLocation, _ sql: String) throws -> Int64? {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        try link.script("SET search_path TO \"\(location.schema)\"")
        return try link.integer(sql)
    }

    static func entry(_ endpoint: String, bodies: RequestBodies? = nil) -> RequestLogEntry {
        RequestLogEntry(time: Date(), user: "_u", container: "iCloud.x", database: "private", endpoint: endpoint,
                        status: 200, durationMicroseconds: 1, error: nil, bodies: bodies)
    }

    static func run(_ location: PostgresLocation, _ script: String) throws {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        try link.script("SET search_path TO \"\(location.schema)\";\n" + script)
    }
}
