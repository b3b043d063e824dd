import Foundation
import StratusModel
import StratusCloud

/// Fills a store with the demo data set: several zones and record types using every field
/// type, CJK and emoji in some values, and a history of updates and deletes so change
/// playback has something to show. Deterministic for a given size.
public struct DemoStoreBuilder {
    /// The zone that marks a store as holding the demo.
    public static let markerZone = ZoneID(zoneName: "Travel")

    public let recordCount: Int
    private var random: SeededGenerator

    public init(recordCount: Int = 3000) {
        self.recordCount = max(recordCount, 50)
        random = SeededGenerator(seed: 20_241_122)
    }

    /// Whether `store` already holds the demo.
    public static func isDemo(_ store: Store) throws -> Bool {
        try store.database(.private).allRecordZones().contains { $0.zoneID == markerZone }
    }

    /// Whether `store` holds no records besides its users' `Users` records.
    public static func isEmpty(_ store: Store) throws -> Bool {
        try DatabaseScope.allCases.allSatisfy { scope in
            let database = store.database(scope)
            return try database.allRecordZones().allSatisfy { zone in
                try zone.recordCount == 0 || database.recordCountsByType(inZoneWith: zone.zoneID).keys.allSatisfy { $0 == "Users" }
            }
        }
    }

    /// Builds the demo, calling `progress` with the fraction done.
    public mutating func build(into store: Store, progress: (Double) -> Void = { _ in }) throws {
        let db = store.database(.private)
        let travel = DemoStoreBuilder.markerZone
        let people = ZoneID(zoneName: "People")
        let library = ZoneID(zoneName: "Library")
        try db.modifyRecordZones(saving: [travel, people, library])
        let cover = try store.putAsset(Data("demo cover image — 表紙 🖼️".utf8))
        let map = try store.putAsset(Data(repeating: 0x5A, count: 4096))

        let tripCount = recordCount / 6
        let placeCount = recordCount / 3
        let personCount = recordCount / 6
        let bookCount = recordCount / 6
        let reviewCount = max(recordCount - tripCount - placeCount - personCount - bookCount - 20, 0)
        // The records go in a few large transactions: each index page is then written once per
        // transaction rather than once per batch (a fraction of the bytes on a large store).
        try db.writeInBulk(itemsPerTransaction: 250_000) { writer in
            try fill(&writer, travel: travel, people: people, library: library, cover: cover, map: map,
                     counts: (tripCount, placeCount, personCount, bookCount, reviewCount), progress: progress)
        }
        let publicDB = store.database(.public)
        _ = try publicDB.modifyRecords(saving: (0..<10).map { index in
            Record(recordType: "Announcement", recordID: RecordID(recordName: "announcement-\(index)"), fields: [
                "title": .string(["Welcome to Stratus ☁️", "新機能のお知らせ", "Maintenance window", "새로운 소식"][index % 4]),
                "body": .string(pick(DemoData.sentences)),
                "publishedAt": .timestamp(date(daysFromNow: -index)),
            ])
        }, atomically: false).savedRecords()

        try makeHistory(db: db, travel: travel, library: library, people: people, tripCount: tripCount, bookCount: bookCount, personCount: personCount)
        progress(1)
    }

    /// Every record of the demo's zones, 400 a batch.
    private mutating func fill(_ writer: inout BulkWriter, travel: ZoneID, people: ZoneID, library: ZoneID, cover: Asset, map: Asset,
                               counts: (trips: Int, places: Int, people: Int, books: Int, reviews: Int), progress: (Double) -> Void) throws {
        let (tripCount, placeCount, personCount, bookCount, reviewCount) = counts
        var pending: [Record] = []
        var written = 0
        let total = Double(recordCount)
        func flush(force: Bool = false) throws {
            guard force || pending.count >= 400 else { return }
            if !pending.isEmpty { _ = try writer.modifyRecords(saving: pending, atomically: false).savedRecords() }
            written += pending.count
            pending = []
            progress(min(0.9, Double(written) / total * 0.9))
        }

        for index in 0..<tripCount {
            let city = pick(DemoData.cities)
            var trip = Record(recordType: "Trip", recordID: RecordID(recordName: "trip-\(index)", zoneID: travel))
            trip["title"] = .string("\(city.name) \(pick(DemoData.tripWords)) \(pick(DemoData.emoji))")
            trip["notes"] = .string(pick(DemoData.sentences) + " " + pick(DemoData.sentences))
            trip["startDate"] = .timestamp(date(daysFromNow: roll(900) - 450))
            trip["nights"] = .int64(Int64(roll(21) + 1))
            trip["budget"] = .double(Double(roll(500_000)) / 100)
            trip["tags"] = .list(.string, (0..<roll(4)).map { _ in .string(pick(DemoData.tags)) })
            trip["destination"] = .location(jitter(city.location))
            trip["cover"] = .asset(index % 2 == 0 ? cover : map)
            trip["ticket"] = .bytes(Data((0..<16).map { _ in UInt8(roll(256)) }))
            pending.append(trip)
            try flush()
        }
        for index in 0..<placeCount {
            let city = pick(DemoData.cities)
            var place = Record(recordType: "Place", recordID: RecordID(recordName: "place-\(index)", zoneID: travel))
            place["name"] = .string("\(pick(DemoData.placeWords)) \(city.name)")
            place["city"] = .string(city.name)
            place["country"] = .string(city.country)
            place["location"] = .location(jitter(city.location))
            place["rating"] = .double(Double(roll(50)) / 10)
            place["visits"] = .int64(Int64(roll(1000)))
            place["trip"] = .reference(Reference(recordName: "trip-\(roll(tripCount))", action: .deleteSelf))
            place["photos"] = .list(.asset, index % 5 == 0 ? [.asset(cover)] : [])
            place["visitedOn"] = .list(.timestamp, [.timestamp(date(daysFromNow: -roll(300)))])
            place["checkins"] = .list(.location, [.location(jitter(city.location))])
            pending.append(place)
            try flush()
        }
        try flush(force: true)
        for index in 0..<personCount {
            let (first, last) = (pick(DemoData.firstNames), pick(DemoData.lastNames))
            var person = Record(recordType: "Person", recordID: RecordID(recordName: "person-\(index)", zoneID: people))
            person["firstName"] = .string(first)
            person["lastName"] = .string(last)
            person["email"] = .string("user\(index)@example.com")
            person["birthday"] = .timestamp(date(daysFromNow: -Int(roll(20_000) + 6000)))
            person["favoriteColors"] = .list(.string, (0..<Int(roll(3) + 1)).map { _ in .string(pick(DemoData.colors)) })
            person["score"] = .int64(Int64(roll(10_000)) - 5000)
            person["height"] = .double(1.5 + Double(roll(50)) / 100)
            if index > 0 { person["manager"] = .reference(Reference(recordName: "person-\(roll(index))")) }
            person["friends"] = .list(.reference, (0..<roll(3)).map { _ in
                .reference(Reference(recordName: "person-\(roll(personCount))"))
            })
            person["luckyNumbers"] = .list(.int64, (0..<3).map { _ in .int64(Int64(roll(100))) })
            person["weights"] = .list(.double, [.double(60.5), .double(61.25)])
            person["avatar"] = .bytes(Data("\(first) \(last)".utf8))
            person["keys"] = .list(.bytes, [.bytes(Data([1, 2, 3]))])
            pending.append(person)
            try flush()
        }
        try flush(force: true)
        for index in 0..<bookCount {
            var book = Record(recordType: "Book", recordID: RecordID(recordName: "book-\(index)", zoneID: library))
            book["title"] = .string(pick(DemoData.bookTitles) + (index < DemoData.bookTitles.count ? "" : " \(index)"))
            book["author"] = .string("\(pick(DemoData.firstNames)) \(pick(DemoData.lastNames))")
            book["isbn"] = .string(String(format: "978-%010d", roll(9_999_999_999)))
            book["pages"] = .int64(Int64(roll(900) + 60))
            book["published"] = .timestamp(date(daysFromNow: -roll(30_000)))
            book["price"] = .double(Double(roll(6000) + 500) / 100)
            book["genres"] = .list(.string, [.string(pick(DemoData.genres))])
            book["cover"] = .asset(cover)
            book["summary"] = .string(pick(DemoData.sentences))
            pending.append(book)
            try flush()
        }
        try flush(force: true)
        for index in 0..<reviewCount {
            var review = Record(recordType: "Review", recordID: RecordID(recordName: "review-\(index)", zoneID: library))
            review["book"] = .reference(Reference(recordName: "book-\(roll(bookCount))", action: .deleteSelf))
            review["stars"] = .int64(Int64(roll(5) + 1))
            review["text"] = .string(pick(DemoData.sentences) + " " + pick(DemoData.emoji))
            review["reviewer"] = .string(pick(DemoData.firstNames))
            pending.append(review)
            try flush()
        }
        try flush(force: true)
        for index in 0..<10 {
            var note = Record(recordType: "Note", recordID: RecordID(recordName: "note-\(index)"))
            note["text"] = .string(pick(DemoData.sentences))
            note["pinned"] = .int64(index % 3 == 0 ? 1 : 0)
            pending.append(note)
        }
        try flush(force: true)
    }

    /// Updates and deletes, so a zone's playback from an old token has edits and tombstones.
    private mutating func makeHistory(db: CloudDatabase, travel: ZoneID, library: ZoneID, people: ZoneID,
                                      tripCount: Int, bookCount: Int, personCount: Int) throws {
        let updateIDs = (0..<max(tripCount / 3, 1)).map { RecordID(recordName: "trip-\($0 * 3 % tripCount)", zoneID: travel) }
        var updated: [Record] = []
        for item in try db.records(for: updateIDs) {
            guard var trip = try? item.result.get() else { continue }
            if case .int64(let nights) = trip["nights"] { trip["nights"] = .int64(nights + 1) }
            trip["notes"] = .string("Updated: " + pick(DemoData.sentences))
            updated.append(trip)
        }
        let doomedTrips = (0..<max(tripCount / 20, 1)).map { RecordID(recordName: "trip-\(($0 * 7 + 1) % tripCount)", zoneID: travel) }
        let doomedBooks = (0..<max(bookCount / 25, 1)).map { RecordID(recordName: "book-\(($0 * 11 + 2) % bookCount)", zoneID: library) }
        let doomedPeople = (0..<max(personCount / 30, 1)).map { RecordID(recordName: "person-\(($0 * 13 + 5) % personCount)", zoneID: people) }
        try db.writeInBulk { writer in
            for chunk in stride(from: 0, to: updated.count, by: 400) {
                _ = try writer.modifyRecords(saving: Array(updated[chunk..<min(chunk + 400, updated.count)])).savedRecords()
            }
            for doomed in [doomedTrips, doomedBooks, doomedPeople] {
                try deleteInBatches(Array(Set(doomed)), with: &writer)
            }
        }
    }

    /// Deletes in batches CloudKit accepts; a delete cascading through DELETE_SELF may find a
    /// record already gone, which is fine for the demo's history.
    private func deleteInBatches(_ recordIDs: [RecordID], with writer: inout BulkWriter) throws {
        for start in stride(from: 0, to: recordIDs.count, by: CloudDatabase.maximumBatchSize) {
            _ = try writer.modifyRecords(deleting: Array(recordIDs[start..<min(start + CloudDatabase.maximumBatchSize, recordIDs.count)]), atomically: false)
        }
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[roll(items.count)] }

    /// A number in 0..<bound.
    private mutating func roll(_ bound: Int) -> Int { random.below(bound) }

    private mutating func jitter(_ location: Location) -> Location {
        Location(latitude: location.latitude + (Double(roll(2000)) - 1000) / 20_000,
                 longitude: location.longitude + (Double(roll(2000)) - 1000) / 20_000,
                 altitude: Double(roll(300)), horizontalAccuracy: 10)
    }

    private func date(daysFromNow days: Int) -> Date {
        Date(timeIntervalSince1970: 1_767_225_600 + Double(days) * 86_400)
    }
}

