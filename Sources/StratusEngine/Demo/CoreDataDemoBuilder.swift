import Foundation
import StratusModel
import StratusCloud

/// Fills a store the way NSPersistentCloudKitContainer fills an app's private database: one
/// zone, `com.apple.coredata.cloudkit.zone`, with `CD_Owner`, `CD_Trip` (and its sub-entity
/// BusinessTrip, in the same record type) and `CD_Place` records named by upper-case UUIDs,
/// to-one relationships as STRING record names, Booleans as INT64, large photos in
/// `_ckAsset` companions, and `CDMR` join records for the Place–Trip many-to-many relationship.
///
/// It gives the dashboard's Core Data lens, and anyone learning what mirroring writes, a store
/// of the real shapes. Deterministic for a given size.
public struct CoreDataDemoBuilder {
    public static let zone = ZoneID(zoneName: CoreDataLens.zoneName)

    public let recordCount: Int
    private var random: SeededGenerator

    public init(recordCount: Int = 3000) {
        self.recordCount = max(recordCount, 50)
        random = SeededGenerator(seed: 20_261_124)
    }

    /// Whether `store` already holds this demo.
    public static func isDemo(_ store: Store) throws -> Bool {
        try store.database(.private).allRecordZones().contains { $0.zoneID == zone }
    }

    /// Builds the demo, calling `progress` with the fraction done.
    public mutating func build(into store: Store, progress: (Double) -> Void = { _ in }) throws {
        let db = store.database(.private)
        try db.modifyRecordZones(saving: [Self.zone])
        let photo = try store.putAsset(Data(repeating: 0xA5, count: 750_000))
        let ownerCount = max(recordCount / 10, 2)
        let tripCount = max(recordCount * 4 / 10, 2)
        let placeCount = max(recordCount * 3 / 10, 2)
        let linkCount = max(recordCount - ownerCount - tripCount - placeCount, 1)
        var pending: [Record] = []
        var written = 0
        func add(_ record: Record) throws {
            pending.append(record)
            guard pending.count == CloudDatabase.maximumBatchSize else { return }
            try flush()
        }
        func flush() throws {
            guard !pending.isEmpty else { return }
            _ = try db.modifyRecords(saving: pending, atomically: false).savedRecords()
            written += pending.count
            pending = []
            progress(Double(written) / Double(recordCount))
        }

        var owners: [String] = []
        for _ in 0..<ownerCount {
            var owner = record("Owner")
            owner["CD_name"] = .string("\(pick(DemoData.firstNames)) \(pick(DemoData.lastNames))")
            owner["CD_joinedAt"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(roll(50_000_000))))
            owners.append(owner.recordName)
            try add(owner)
        }
        var trips: [String] = []
        for index in 0..<tripCount {
            let business = index % 4 == 3
            var trip = record("Trip", entity: business ? "BusinessTrip" : "Trip")
            let city = pick(DemoData.cities)
            trip["CD_title"] = .string("\(city.name) \(pick(DemoData.tripWords)) \(pick(DemoData.emoji))")
            trip["CD_startDate"] = .timestamp(Date(timeIntervalSince1970: 1_760_000_000 + Double(roll(60_000_000))))
            trip["CD_budget"] = .double(Double(roll(500_000)) / 100)
            trip["CD_isBooked"] = .int64(Int64(roll(2)))
            trip["CD_id"] = .string(uuid())
            trip["CD_owner"] = .string(owners[roll(owners.count)])
            if business { trip["CD_company"] = .string(pick(["Stratus Ltd", "雲株式会社", "Nimbus GmbH"])) }
            // A large photo does not fit the record: the attribute stays empty and the asset holds it.
            if index % 5 == 0 {
                trip["CD_coverPhoto_ckAsset"] = .asset(photo)
            } else if index % 5 == 1 {
                trip["CD_coverPhoto"] = .bytes(Data((0..<24).map { _ in UInt8(roll(256)) }))
            }
            trips.append(trip.recordName)
            try add(trip)
        }
        var places: [String] = []
        for _ in 0..<placeCount {
            var place = record("Place")
            let city = pick(DemoData.cities)
            place["CD_name"] = .string("\(pick(DemoData.placeWords)) \(city.name)")
            place["CD_latitude"] = .double(city.location.latitude)
            place["CD_longitude"] = .double(city.location.longitude)
            place["CD_visitCount"] = .int64(Int64(roll(40)))
            places.append(place.recordName)
            try add(place)
        }
        var linked: Set<String> = []
        for _ in 0..<linkCount {
            let place = places[roll(places.count)], trip = trips[roll(trips.count)]
            guard linked.insert("\(place):\(trip)").inserted else { continue }
            // Place sorts before Trip, so Place.trips is the first relationship.
            var join = Record(recordType: CoreDataLens.joinRecordType, recordID: RecordID(recordName: uuid(), zoneID: Self.zone))
            join["CD_entityNames"] = .string("Place:Trip")
            join["CD_relationships"] = .string("trips:places")
            join["CD_recordNames"] = .string("\(place):\(trip)")
            try add(join)
        }
        try flush()
        progress(1)
    }

    private mutating func record(_ rootEntity: String, entity: String? = nil) -> Record {
        var record = Record(recordType: CoreDataLens.fieldPrefix + rootEntity, recordID: RecordID(recordName: uuid(), zoneID: Self.zone))
        record["CD_entityName"] = .string(entity ?? rootEntity)
        return record
    }

    /// An upper-case UUID string, as NSPersistentCloudKitContainer names records.
    private mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8(roll(256)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString
    }

    private mutating func roll(_ bound: Int) -> Int { random.below(bound) }

    private mutating func pick<T>(_ items: [T]) -> T { items[roll(items.count)] }
}
