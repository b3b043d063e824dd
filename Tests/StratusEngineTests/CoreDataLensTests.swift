import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

@Suite(.onEveryBackend) struct CoreDataLensTests {
    private let zone = ZoneID(zoneName: CoreDataLens.zoneName)

    @Test func aMirroredRecordReadsAsItsEntity() throws {
        var trip = Record(recordType: "CD_Trip", recordID: RecordID(recordName: "0E6C3B8A-1F2D-4E5C-8A9B-7C6D5E4F3A2B", zoneID: zone))
        trip["CD_entityName"] = .string("BusinessTrip")
        trip["CD_title"] = .string("Lisbon weekend 🍷")
        trip["CD_isBooked"] = .int64(1)
        trip["CD_owner"] = .string("6B1F0C2E-5D4A-4C8B-9E7F-2A3B4C5D6E7F")
        trip["CD_coverPhoto"] = .bytes(Data())
        trip["CD_coverPhoto_ckAsset"] = .asset(Asset(fileChecksum: "abc", size: 1_843_200))
        trip["CD_notes_ckAsset"] = .asset(Asset(fileChecksum: "def", size: 900_000))
        trip["CD_moveReceipt"] = .bytes(Data([1, 2]))
        let entity = try #require(CoreDataLens.entity(trip))
        #expect(entity.name == "BusinessTrip")
        #expect(entity.rootName == "Trip")
        #expect(entity.hasMoveReceipt)
        #expect(entity.properties.map(\.name) == ["coverPhoto", "isBooked", "notes", "owner", "title"])
        let photo = try #require(entity.properties.first { $0.name == "coverPhoto" })
        #expect(photo.isFromAsset)
        #expect(photo.value == .asset(Asset(fileChecksum: "abc", size: 1_843_200)))
        #expect(entity.properties.first { $0.name == "owner" }?.relatedRecordName == "6B1F0C2E-5D4A-4C8B-9E7F-2A3B4C5D6E7F")
        #expect(entity.properties.first { $0.name == "title" }?.relatedRecordName == nil)
    }

    @Test func anInlineValueWinsOverItsAsset() throws {
        var record = Record(recordType: "CD_Note", recordID: RecordID(recordName: "n", zoneID: zone))
        record["CD_body"] = .string("short")
        record["CD_body_ckAsset"] = .asset(Asset(fileChecksum: "x", size: 1))
        let body = try #require(CoreDataLens.entity(record)?.properties.first)
        #expect(body.value == .string("short"))
        #expect(!body.isFromAsset)
        #expect(CoreDataLens.entity(Record(recordType: "Trip", recordID: RecordID(recordName: "t", zoneID: zone))) == nil)
    }

    @Test func aJoinRecordLinksBothWays() throws {
        var join = Record(recordType: "CDMR", recordID: RecordID(recordName: "J", zoneID: zone))
        join["CD_entityNames"] = .string("Place:Trip")
        join["CD_relationships"] = .string("trips:places")
        join["CD_recordNames"] = .string("P1:T1")
        let link = try #require(CoreDataLens.link(join))
        let fromTrip = try #require(link.ends(from: "T1"))
        #expect(fromTrip.own.relationship == "places")
        #expect(fromTrip.other.entity == "Place")
        #expect(fromTrip.other.recordName == "P1")
        #expect(link.ends(from: "P1")?.own.relationship == "trips")
        #expect(link.ends(from: "X") == nil)
        join["CD_recordNames"] = .string("P1;T1")
        #expect(CoreDataLens.link(join) == nil)
    }

    @Test func theDemoHasTheShapesMirroringWrites() throws {
        let temp = try TemporaryStore()
        var builder = CoreDataDemoBuilder(recordCount: 400)
        try builder.build(into: temp.store)
        #expect(try CoreDataDemoBuilder.isDemo(temp.store))
        let db = temp.store.database(.private)
        let counts = try db.recordCountsByType(inZoneWith: CoreDataDemoBuilder.zone)
        #expect(Set(counts.keys) == ["CD_Owner", "CD_Trip", "CD_Place", "CDMR"])
        #expect(counts.values.reduce(0, +) > 350)

        func all(_ type: String) throws -> [Record] {
            var page = try db.records(matching: Query(recordType: type), inZoneWith: CoreDataDemoBuilder.zone, resultsLimit: 1000)
            var records = page.records
            while let cursor = page.cursor {
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: 1000)
                records += page.records
            }
            return records
        }
        let trips = try all("CD_Trip"), places = try all("CD_Place"), owners = try all("CD_Owner")
        let names = Set((trips + places + owners).map(\.recordName))
        #expect((trips + places + owners).allSatisfy { UUID(uuidString: $0.recordName)?.uuidString == $0.recordName })
        let entities = trips.compactMap(CoreDataLens.entity)
        #expect(Set(entities.map(\.name)) == ["Trip", "BusinessTrip"])
        // Every to-one relationship names an owner of the zone.
        let ownerNames = Set(owners.map(\.recordName))
        #expect(entities.allSatisfy { entity in entity.properties.first { $0.name == "owner" }.flatMap(\.relatedRecordName).map(ownerNames.contains) == true })
        #expect(entities.contains { $0.properties.contains { $0.name == "coverPhoto" && $0.isFromAsset } })
        // Every join record links a Place (first, by entity name) to a Trip, both present.
        let links = try all("CDMR").map { try #require(CoreDataLens.link($0)) }
        #expect(!links.isEmpty)
        #expect(links.allSatisfy { $0.first.entity == "Place" && $0.second.entity == "Trip" && $0.first.relationship == "trips" })
        #expect(links.allSatisfy { names.contains($0.first.recordName) && names.contains($0.second.recordName) })
    }

    /// A UUID attribute (`CD_id`) is not a relationship: only a STRING naming a record of the
    /// zone is; the one side of a one-to-many relationship and both ends of a many-to-many one
    /// see what they reach.
    @Test func theGraphReadsRelationshipsFromTheZone() throws {
        let temp = try TemporaryStore()
        var builder = CoreDataDemoBuilder(recordCount: 200)
        try builder.build(into: temp.store)
        let db = temp.store.database(.private)
        let types = try temp.store.recordTypes()
        func all(_ type: String) throws -> [Record] {
            try db.records(matching: Query(recordType: type), inZoneWith: CoreDataDemoBuilder.zone, resultsLimit: 1000).records
        }
        let trips = try all("CD_Trip"), joins = try all("CDMR").compactMap(CoreDataLens.link)
        let trip = try #require(trips.first { trip in joins.contains { $0.second.recordName == trip.recordName } })
        let graph = try CoreDataGraph.read(trip, in: db, recordTypes: types)
        #expect(graph.toOne("id") == nil, "CD_id holds a UUID that names no record")
        guard case .string(let ownerName)? = trip["CD_owner"] else { Issue.record("no owner"); return }
        #expect(graph.toOne("owner") == CoreDataGraph.Related(recordName: ownerName, entity: "Owner"))
        let places = try #require(graph.relationships.first { $0.name == "places" })
        #expect(places.kind == .manyToMany)
        #expect(places.count == joins.filter { $0.second.recordName == trip.recordName }.count)
        #expect(places.related.allSatisfy { $0.entity == "Place" })

        // The owner stores nothing; it sees the trips naming it.
        let owner = try db.record(for: RecordID(recordName: ownerName, zoneID: CoreDataDemoBuilder.zone))
        let ownerGraph = try CoreDataGraph.read(owner, in: db, recordTypes: types)
        let inverse = try #require(ownerGraph.relationships.first { $0.name == "owner" })
        #expect(inverse.kind == .inverse(entity: "Trip"))
        #expect(inverse.count == trips.filter { $0["CD_owner"] == .string(ownerName) }.count)
        #expect(inverse.related.contains { $0.recordName == trip.recordName })
        #expect(ownerGraph.relationships.allSatisfy { $0.kind != .toOne })

        // The place end of a link sees the trip.
        let placeName = try #require(joins.first { $0.second.recordName == trip.recordName }?.first.recordName)
        let place = try db.record(for: RecordID(recordName: placeName, zoneID: CoreDataDemoBuilder.zone))
        let tripsOfPlace = try #require(try CoreDataGraph.read(place, in: db, recordTypes: types).relationships.first { $0.name == "trips" })
        // The link names the entity that declares the relationship (Trip, for a BusinessTrip too).
        #expect(tripsOfPlace.related.contains(CoreDataGraph.Related(recordName: trip.recordName, entity: "Trip")))
    }
}
