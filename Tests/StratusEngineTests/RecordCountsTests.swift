import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing
import class GRDB.Row

/// `recordCountsByType(inZoneWith:)`: per-type counts of one zone, from an index only.
@Suite(.onEveryBackend) struct RecordCountsTests {
    @Test func countsEachTypeOfTheZoneOnly() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Counted")
        let other = try temp.zone("Other")
        func records(_ type: String, _ count: Int, in zoneID: ZoneID) -> [Record] {
            (0..<count).map { Record(recordType: type, recordID: RecordID(recordName: "\(type)-\($0)", zoneID: zoneID)) }
        }
        _ = try temp.privateDB.modifyRecords(saving: records("Alpha", 2, in: zone) + records("Zeta", 5, in: zone) + records("Alpha", 9, in: other))
            .savedRecords()
        #expect(try temp.privateDB.recordCountsByType(inZoneWith: zone) == ["Alpha": 2, "Zeta": 5])
        #expect(try temp.privateDB.recordCountsByType(inZoneWith: other) == ["Alpha": 9])
        // Deleted records leave the count; an empty zone has none.
        _ = try temp.privateDB.modifyRecords(deleting: [RecordID(recordName: "Zeta-0", zoneID: zone)])
        #expect(try temp.privateDB.recordCountsByType(inZoneWith: zone)["Zeta"] == 4)
        #expect(try temp.privateDB.recordCountsByType(inZoneWith: .default) == [:])
        #expect(throws: CloudKitError.self) { try temp.privateDB.recordCountsByType(inZoneWith: ZoneID(zoneName: "Missing")) }
    }

    /// The count reads an index that holds the zone and type, never the record rows (whose
    /// field blobs would make it slow on a large zone).
    @Test(.sqliteOnly("SQLite's query plan")) func countsFromACoveringIndex() throws {
        let temp = try TemporaryStore()
        let plan = try temp.store.read { db in
            try Row.fetchAll(db.sqlite, sql: "EXPLAIN QUERY PLAN " + SQLiteRecordStorage.countsByTypeSQL, arguments: [1]).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("COVERING INDEX") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
    }
}

@Suite(.onEveryBackend) struct ChangeActivityTests {
    @Test func lastChangesSpreadOverTimeSlices() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        #expect(try db.changeActivity(inZoneWith: zone, buckets: 4) == [])
        _ = try db.modifyRecords(saving: (0..<5).map { Record(recordType: "Note", recordID: RecordID(recordName: "early-\($0)", zoneID: zone)) })
        Thread.sleep(forTimeInterval: 0.05)
        try db.save(Record(recordType: "Note", recordID: RecordID(recordName: "late", zoneID: zone)))
        #expect(try db.changeActivity(inZoneWith: zone, buckets: 2) == [5, 1])
        let four = try db.changeActivity(inZoneWith: zone, buckets: 4)
        #expect(four.count == 4 && four.reduce(0, +) == 6 && four.first == 5 && four.last == 1)
        #expect(throws: CloudKitError.self) { try db.changeActivity(inZoneWith: ZoneID(zoneName: "Nope"), buckets: 2) }
    }
}
