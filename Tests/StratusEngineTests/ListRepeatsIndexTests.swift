import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
import StratusTestSupport
import Testing

/// A list may hold one value more than once; the index holds each of a record's keys once
/// (PostgreSQL's `field_value` key would refuse the second), on every write path: a record
/// saved alone, many in one save, a bulk write, and a record replaced.
@Suite(.onEveryBackend) struct ListRepeatsIndexTests {
    static let schema = #"""
        DEFINE SCHEMA
            RECORD TYPE Spot (
                "___recordID" REFERENCE QUERYABLE,
                tags LIST<STRING> QUERYABLE SEARCHABLE,
                counts LIST<INT64> QUERYABLE,
                weights LIST<DOUBLE> QUERYABLE,
                days LIST<TIMESTAMP> QUERYABLE,
                places LIST<LOCATION> QUERYABLE,
                links LIST<REFERENCE> QUERYABLE,
                GRANT READ, CREATE, WRITE TO "_icloud"
            );
        """#

    /// A record whose every list repeats a value, `-0.0` beside `0.0` among them.
    private func spot(_ name: String, in zone: ZoneID, tag: String = "sea") -> Record {
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let oslo = Location(latitude: 59.91, longitude: 10.75)
        let link = FieldValue.reference(Reference(recordName: "home"))
        return Record(recordType: "Spot", recordID: RecordID(recordName: name, zoneID: zone), fields: [
            "tags": .list(.string, [.string(tag), .string("Sea"), .string(tag), .string("hills")]),
            "counts": .list(.int64, [.int64(3), .int64(3), .int64(7)]),
            "weights": .list(.double, [.double(1.5), .double(1.5), .double(0.0), .double(-0.0)]),
            "days": .list(.timestamp, [.timestamp(day), .timestamp(day)]),
            "places": .list(.location, [.location(oslo), .location(oslo)]),
            "links": .list(.reference, [link, link]),
        ])
    }

    private func query(_ filter: String) -> Query {
        let argument: PredicateArgument = filter.hasPrefix("days")
            ? .value(.timestamp(Date(timeIntervalSince1970: 1_700_000_000))) : .reference("home")
        return Query(recordType: "Spot", predicateFormat: filter, arguments: filter.contains("%@") ? [argument] : [])
    }

    private func names(_ db: CloudDatabase, _ filter: String, _ zone: ZoneID) throws -> [String] {
        let page = try db.records(matching: query(filter), inZoneWith: zone, resultsLimit: 400)
        return page.records.map(\.recordID.recordName).sorted()
    }

    @Test func everyWritePathKeepsARepeatedListValueOnceAndFindsItsRecordOnce() throws {
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(text: Self.schema)
        let zone = try temp.zone("Spots")
        let db = temp.privateDB
        // Alone, then many in one save (held and written together), then a bulk write.
        _ = try db.modifyRecords(saving: [spot("alone", in: zone)]).savedRecords()
        _ = try db.modifyRecords(saving: (0..<40).map { spot("many-\($0)", in: zone) }).savedRecords()
        _ = try db.writeInBulk(itemsPerTransaction: 25, indexRowLimit: 7) { (writer: inout BulkWriter) in
            _ = try writer.modifyRecords(saving: (0..<60).map { spot("bulk-\($0)", in: zone) }).savedRecords()
        }
        let all = (["alone"] + (0..<40).map { "many-\($0)" } + (0..<60).map { "bulk-\($0)" }).sorted()
        for filter in ["ANY tags == 'sea'", "ANY tags == 'Sea'", "counts CONTAINS 3", "counts CONTAINS 7", "weights CONTAINS 1.5",
                       "weights CONTAINS 0.0", "days CONTAINS %@", "links CONTAINS %@", "self CONTAINS 'hills'"] {
            #expect(try names(db, filter, zone) == all, "\(filter)")
            #expect(try db.indexedCount(matching: query(filter), inZoneWith: zone) == all.count, "\(filter)")
        }

        // Replaced with another repeated value: the old keys gone, the new one there once.
        let changed = try db.records(for: [RecordID(recordName: "alone", zoneID: zone), RecordID(recordName: "bulk-3", zoneID: zone)])
            .map { try $0.result.get() }
            .map { record in
                var record = record
                record["tags"] = .list(.string, [.string("lake"), .string("lake")])
                return record
            }
        _ = try db.modifyRecords(saving: changed).savedRecords()
        #expect(try names(db, "ANY tags == 'lake'", zone) == ["alone", "bulk-3"])
        #expect(try names(db, "ANY tags == 'sea'", zone) == all.filter { $0 != "alone" && $0 != "bulk-3" })
    }
}
