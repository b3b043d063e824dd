import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// Distance queries where a spatial index most easily goes wrong: across the antimeridian, at
/// the poles, after edits and deletes (lists of locations are indexed too), and in a store whose locations
/// were indexed in the R*Tree of store format 1.
@Suite(.onEveryBackend) struct LocationQueryTests {
    private let places: [(String, Double, Double)] = [
        ("fiji-east", -17.0, 179.999), ("fiji-west", -17.0, -179.999), ("north-pole", 89.999, 45), ("north-far-side", 89.999, -135),
        ("south-pole", -89.9999, 0), ("cupertino", 37.3319, -122.0302), ("sydney", -33.86, 151.21),
    ]

    private func placesStore() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Places")
        var records: [StratusCloud.Record] = []
        for (name, latitude, longitude) in places {
            var record = StratusCloud.Record(recordType: "Place", recordID: RecordID(recordName: name, zoneID: zone))
            record["location"] = .location(Location(latitude: latitude, longitude: longitude))
            record["visits"] = .list(.location, [.location(Location(latitude: latitude, longitude: longitude)),
                                                 .location(Location(latitude: 0, longitude: 0))])
            records.append(record)
        }
        _ = try temp.privateDB.modifyRecords(saving: records).savedRecords()
        return (temp, zone)
    }

    private func near(_ temp: TemporaryStore, _ zone: ZoneID, _ latitude: Double, _ longitude: Double, km: Double) throws -> Set<String> {
        let query = Query(recordType: "Place", predicateFormat: "distanceToLocation:fromLocation:(location, %@) < %@",
                          arguments: [.location(latitude: latitude, longitude: longitude), .double(km)])
        return Set(try temp.privateDB.records(matching: query, inZoneWith: zone).records.map(\.recordName))
    }

    @Test func acrossTheAntimeridianAndAtThePoles() throws {
        let (temp, zone) = try placesStore()
        #expect(try near(temp, zone, -17, 180, km: 5) == ["fiji-east", "fiji-west"])
        #expect(try near(temp, zone, -17, -180, km: 5) == ["fiji-east", "fiji-west"])
        #expect(try near(temp, zone, 90, 0, km: 1) == ["north-pole", "north-far-side"])
        #expect(try near(temp, zone, -90, 123, km: 1) == ["south-pole"])
        #expect(try near(temp, zone, 37.33, -122.03, km: 1) == ["cupertino"])
        #expect(try near(temp, zone, 0, 0, km: 25_000).count == places.count)
    }

    @Test func listMembershipOfALocationReadsItsCodeAndChecksEachRecord() throws {
        let (temp, zone) = try placesStore()
        func containing(_ latitude: Double, _ longitude: Double) throws -> Set<String> {
            let query = Query(recordType: "Place", predicateFormat: "visits CONTAINS %@", arguments: [.location(latitude: latitude, longitude: longitude)])
            return Set(try temp.privateDB.records(matching: query, inZoneWith: zone).records.map(\.recordName))
        }
        #expect(try containing(-33.86, 151.21) == ["sydney"])
        #expect(try containing(0, 0).count == places.count)
        // A nanodegree away shares the code (the same centimetre cell) but is not the same place.
        #expect(ZOrderCode.code(Location(latitude: -33.86, longitude: 151.21)) == ZOrderCode.code(Location(latitude: -33.860000001, longitude: 151.21)))
        #expect(try containing(-33.860000001, 151.21).isEmpty)

        let plan = try temp.store.read { db -> QueryPlan in
            let type = try #require(try temp.store.catalog(db).type(named: "Place"))
            let compiled = try PredicateCompiler.compile(format: "visits CONTAINS %@", arguments: [.location(latitude: 0, longitude: 0)],
                                                         recordType: "Place", schema: type.schema, sorts: [], now: Date()).get()
            return QueryPlanner(type: type).plan(compiled)
        }
        guard case .values(_, let keys, false, true) = plan.driver else { Issue.record("driver: \(plan.driver)"); return }
        #expect(keys == [.integer(ZOrderCode.code(Location(latitude: 0, longitude: 0)))])
        #expect(plan.exactTerm == nil, "the term is checked on every record")
    }

    @Test(.sqliteOnly("reads SQLite's index rows")) func movedAndDeletedLocationsLeaveTheIndex() throws {
        let (temp, zone) = try placesStore()
        let db = temp.privateDB
        var sydney = try db.record(for: RecordID(recordName: "sydney", zoneID: zone))
        sydney["location"] = .location(Location(latitude: 37.3320, longitude: -122.0301))
        try db.save(sydney)
        try db.deleteRecord(withID: RecordID(recordName: "cupertino", zoneID: zone))
        #expect(try near(temp, zone, 37.33, -122.03, km: 1) == ["sydney"])
        #expect(try near(temp, zone, -33.86, 151.21, km: 50).isEmpty)
        let rows = try temp.store.read { db in try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value WHERE typeof(value) = 'integer'")! }
        #expect(rows == (places.count - 1) * 3, "one row per location and list element left")
    }

    @Test(.sqliteOnly("a migration of an old SQLite file")) func aFormatOneStoreMovesItsLocationsOutOfTheRTree() throws {
        let (temp, zone) = try placesStore()
        let path = temp.path
        // Turn the store back into format 1: an R*Tree, no location codes, the migration not run;
        // and damage one record, which must not keep the store from opening.
        try temp.store.write { db in
            try db.sqlite.execute(sql: """
                CREATE VIRTUAL TABLE location_index USING rtree (id, min_latitude, max_latitude, min_longitude, max_longitude, +zone_id, +field_id, +record_id);
                DELETE FROM field_value WHERE typeof(value) = 'integer';
                DELETE FROM grdb_migrations WHERE identifier = 'v4-location-codes';
                UPDATE store_info SET format_version = 1;
                UPDATE record SET fields = x'00' WHERE name = 'sydney';
                """)
        }
        var upgrades = 0
        let reopened = try Store(path: path) { upgrades += 1 }
        #expect(upgrades == 1, "the caller hears of the upgrade before it runs")
        _ = try Store(path: path) { upgrades += 1 }
        _ = try Store(path: temp.directory.appendingPathComponent("new.sqlite").path) { upgrades += 1 }
        #expect(upgrades == 1, "an up-to-date or new store is not an upgrade")
        let db = reopened.database(.private)
        let query = Query(recordType: "Place", predicateFormat: "distanceToLocation:fromLocation:(location, %@) < %@",
                          arguments: [.location(latitude: -17, longitude: 180), .double(5)])
        #expect(Set(try db.records(matching: query, inZoneWith: zone).records.map(\.recordName)) == ["fiji-east", "fiji-west"])
        let (hasRTree, format, codes) = try reopened.read { db in
            (try db.sqlite.tableExists("location_index"), try Int.fetchOne(db.sqlite, sql: "SELECT format_version FROM store_info"),
             try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value WHERE typeof(value) = 'integer'"))
        }
        #expect(!hasRTree)
        #expect(format == 2)
        #expect(codes == (places.count - 1) * 3)
    }
}
