import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusPredicates
import StratusTestSupport
import Testing

/// `indexedCount`: a query's size counted in the indexes, for the dashboard's header. It must
/// equal the number of records the query returns whenever it answers, and say nil whenever
/// only reading records can tell.
@Suite(.onEveryBackend) struct IndexedCountTests {
    static let schema = #"""
        DEFINE SCHEMA
            RECORD TYPE Trip (
                "___recordID" REFERENCE QUERYABLE,
                "___modTime" TIMESTAMP QUERYABLE SORTABLE,
                city STRING QUERYABLE SORTABLE SEARCHABLE,
                nights INT64 QUERYABLE SORTABLE,
                tags LIST<STRING> QUERYABLE,
                GRANT READ, CREATE, WRITE TO "_icloud"
            );
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                body STRING QUERYABLE,
                GRANT CREATE, WRITE TO "_icloud",
                GRANT READ TO "_creator"
            );
        """#

    private func store() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(text: Self.schema)
        let zone = try temp.zone("Trips")
        var records: [Record] = []
        for index in 0..<120 {
            var trip = Record(recordType: "Trip", recordID: RecordID(recordName: "t\(index)", zoneID: zone))
            // Every fourth trip has no city: a sort by city still returns it, last.
            if index % 4 != 0 { trip["city"] = .string(["Oslo", "Lima", "Kyoto"][index % 3]) }
            trip["nights"] = .int64(Int64(index % 10))
            // The same tag twice in one list: still one record.
            trip["tags"] = .list(.string, index % 2 == 0 ? [.string("sea"), .string("sea")] : [.string("hills")])
            records.append(trip)
        }
        records.append(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone), fields: ["body": .string("Oslo")]))
        _ = try temp.privateDB.modifyRecords(saving: records).savedRecords()
        return (temp, zone)
    }

    private func walked(_ db: CloudDatabase, _ query: Query, _ zone: ZoneID) throws -> Int {
        var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 50)
        var count = page.records.count
        while let cursor = page.cursor {
            page = try db.records(continuingMatchFrom: cursor, resultsLimit: 50)
            count += page.records.count
        }
        return count
    }

    @Test(arguments: [
        ("TRUEPREDICATE", [String]()),
        ("nights == 3", []),
        ("nights >= 7", []),
        ("city == 'Oslo'", []),
        ("ANY tags == 'sea'", []),
        ("nights < 4", []),
        ("self CONTAINS 'lima'", []),
        ("recordID IN {'t1', 't2', 'nope'}", []),
    ])
    func aCountTheIndexesGiveEqualsTheRecordsTheQueryReturns(filter: String, _: [String]) throws {
        let (temp, zone) = try store()
        for sorts in [[], [QuerySort("city")], [QuerySort("nights", ascending: false), QuerySort("city")]] {
            let query = Query(recordType: "Trip", predicateFormat: filter, sortDescriptors: sorts)
            let counted = try #require(try temp.privateDB.indexedCount(matching: query, inZoneWith: zone), "\(filter) is answered by its index")
            #expect(counted == (try walked(temp.privateDB, query, zone)), "\(filter) sorted by \(sorts.map(\.key))")
        }
    }

    @Test func aTermTheIndexOnlyNarrowsLeavesTheCountToTheWalk() throws {
        let (temp, zone) = try store()
        // One term drives; the other must be checked on each record.
        let query = Query(recordType: "Trip", predicateFormat: "nights == 3 AND city == 'Oslo'")
        #expect(try temp.privateDB.indexedCount(matching: query, inZoneWith: zone) == nil)
    }

    @Test func aTypeReadOnlyByItsCreatorsIsNotCountedForOthers() throws {
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(text: Self.schema)
        let alice = temp.store.database(.public, user: "_a11ce000000000000000000000000000")
        _ = try alice.save(Record(recordType: "Note", recordID: RecordID(recordName: "mine"), fields: ["body": .string("x")]))
        let bob = temp.store.database(.public, user: "_b0b00000000000000000000000000000")
        let query = Query(recordType: "Note")
        // Bob sees none of Alice's notes: an index count would say one.
        #expect(try bob.indexedCount(matching: query, inZoneWith: .default) == nil)
        #expect(try walked(bob, query, .default) == 0)
        // Trips are readable by everyone signed in: counted.
        _ = try alice.save(Record(recordType: "Trip", recordID: RecordID(recordName: "trip"), fields: ["nights": .int64(2)]))
        #expect(try bob.indexedCount(matching: Query(recordType: "Trip"), inZoneWith: .default) == 1)
    }

    @Test func aCountIsOfTheZoneAndTypeAsked() throws {
        let (temp, zone) = try store()
        #expect(try temp.privateDB.indexedCount(matching: Query(recordType: "Note"), inZoneWith: zone) == 1)
        #expect(try temp.privateDB.indexedCount(matching: Query(recordType: "Trip"), inZoneWith: .default) == 0)
        #expect(try temp.privateDB.indexedCount(matching: Query(recordType: "Nothing"), inZoneWith: zone) == nil)
    }
}
