import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusSQLite
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct ChangesTests {
    private func names(_ page: ZoneChangesPage) -> [String] { page.playedNames }

    @Test func playsBackEachRecordOnceInChangeOrder() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Feed")
        let db = temp.privateDB
        func id(_ name: String) -> RecordID { RecordID(recordName: name, zoneID: zone) }
        let a = try db.save(Record(recordType: "Item", recordID: id("a"), fields: ["n": .int64(1)]))
        try db.save(Record(recordType: "Item", recordID: id("b"), fields: ["n": .int64(2)]))
        try db.save(Record(recordType: "Other", recordID: id("c")))
        var edit = a
        edit["n"] = .int64(10)
        try db.save(edit)
        try db.deleteRecord(withID: id("b"))

        let all = try db.recordZoneChanges(inZoneWith: zone)
        #expect(names(all) == ["c", "a", "-b"])
        #expect(all.moreComing == false)
        guard case .changed(let record) = all.changes[1] else { Issue.record("change 1 is not a save: \(all.changes[1])"); return }
        #expect(record["n"] == .int64(10))
        guard case .deleted(_, let type) = all.changes[2] else { Issue.record("change 2 is not a deletion: \(all.changes[2])"); return }
        #expect(type == "Item")
        #expect(all.changeToken == (try db.currentToken(for: zone)))

        let nothing = try db.recordZoneChanges(inZoneWith: zone, since: all.changeToken)
        #expect(nothing.changes.isEmpty)
        #expect(nothing.changeToken == all.changeToken)

        try db.save(Record(recordType: "Item", recordID: id("b"), fields: ["n": .int64(3)]))
        let later = try db.recordZoneChanges(inZoneWith: zone, since: all.changeToken)
        #expect(names(later) == ["b"])
    }

    /// Pages are read one at a time, as CloudKit serves them: a record saved again between two
    /// pages comes again later in its newer state, and what the playback gave last is the truth.
    /// (A check that plays a zone back while a writer still runs sees exactly this.)
    @Test func aRecordSavedAgainBetweenTwoPagesComesAgainInItsNewerState() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Paged")
        let db = temp.privateDB
        let records = (0..<8).map { Record(recordType: "Item", recordID: RecordID(recordName: "r\($0)", zoneID: zone), fields: ["run": .int64(1)]) }
        _ = try db.modifyRecords(saving: records).savedRecords()
        let first = try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 4)
        #expect(names(first) == ["r0", "r1", "r2", "r3"])
        var again = try db.record(for: RecordID(recordName: "r1", zoneID: zone))
        again["run"] = .int64(2)
        try db.save(again)
        let rest = try db.recordZoneChanges(inZoneWith: zone, since: first.changeToken)
        #expect(names(rest) == ["r4", "r5", "r6", "r7", "r1"])
        guard case .changed(let newer) = rest.changes.last else { Issue.record("the last change is not a save"); return }
        #expect(newer["run"] == .int64(2))
        // Played back with no writer running: each record once, as a query finds them.
        let whole = try db.recordZoneChanges(inZoneWith: zone)
        #expect(Set(names(whole)).count == whole.changes.count)
        #expect(Set(names(whole)) == Set((0..<8).map { "r\($0)" }))
    }

    @Test func pagesWithTokensAndNeverRepeatsOrSkips() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Paged")
        let db = temp.privateDB
        let records = (0..<25).map { Record(recordType: "Item", recordID: RecordID(recordName: "r\($0)", zoneID: zone), fields: ["n": .int64(Int64($0))]) }
        _ = try db.modifyRecords(saving: records).savedRecords()
        var token: String?
        var seen: [String] = []
        var pages = 0
        repeat {
            let page = try db.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: 10)
            seen += names(page)
            token = page.changeToken
            pages += 1
            if !page.moreComing { break }
        } while pages < 10
        #expect(pages == 3)
        #expect(seen == (0..<25).map { "r\($0)" })
    }

    @Test func desiredKeysTrimFieldsAndEmptyMeansSystemFieldsOnly() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Keys")
        let db = temp.privateDB
        try db.save(Record(recordType: "Item", recordID: RecordID(recordName: "k", zoneID: zone), fields: ["a": .int64(1), "b": .int64(2)]))
        guard case .changed(let some) = try db.recordZoneChanges(inZoneWith: zone, desiredKeys: ["a"]).changes.first,
              case .changed(let none) = try db.recordZoneChanges(inZoneWith: zone, desiredKeys: []).changes.first else {
            Issue.record("expected a change")
            return
        }
        #expect(some.fields == ["a": .int64(1)])
        #expect(none.fields.isEmpty)
        #expect(none.recordChangeTag != nil && none.modificationDate != nil)
        let fetched = try db.records(for: [RecordID(recordName: "k", zoneID: zone)], desiredKeys: ["b"])
        #expect(try fetched[0].result.get().fields == ["b": .int64(2)])
    }

    @Test func refusesForeignDamagedAndExpiredTokens() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("One")
        let other = try temp.zone("Two")
        let db = temp.privateDB
        try db.save(Record(recordType: "Item", recordID: RecordID(recordName: "x", zoneID: zone)))
        let token = try db.currentToken(for: zone)

        let wrongZone = #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: other, since: token) }
        #expect(wrongZone?.code == .invalidArguments)
        #expect(wrongZone?.message.contains("'One'") == true)

        var damaged = Array(token)
        damaged[damaged.count / 2] = damaged[damaged.count / 2] == "A" ? "B" : "A"
        let damage = #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: String(damaged)) }
        #expect(damage?.code == .invalidArguments)
        #expect(damage?.message.contains("damaged") == true)
        #expect((#expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: "not a token!") })?.code == .invalidArguments)

        let foreignStore = try TemporaryStore()
        _ = try foreignStore.zone("One")
        let foreign = #expect(throws: CloudKitError.self) { try foreignStore.privateDB.recordZoneChanges(inZoneWith: zone, since: token) }
        #expect(foreign?.message.contains("another store") == true)

        let databaseToken = try db.currentDatabaseToken()
        let mixed = #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: databaseToken) }
        #expect(mixed?.message.contains("not interchangeable") == true)

        try db.modifyRecordZones(deleting: [zone])
        let gone = #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: token) }
        #expect(gone?.code == .zoneNotFound)
        try db.modifyRecordZones(saving: [zone])
        let expired = #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: token) }
        #expect(expired?.code == .changeTokenExpired)
        #expect(expired?.code.rawValue == 21)
        #expect(try db.recordZoneChanges(inZoneWith: zone).changes.isEmpty)
    }

    @Test func publicDatabaseAndDefaultZoneHaveNoChangeFeed() throws {
        let temp = try TemporaryStore()
        let publicError = #expect(throws: CloudKitError.self) { try temp.store.database(.public).recordZoneChanges(inZoneWith: ZoneID(zoneName: "X")) }
        #expect(publicError?.message.contains("public database") == true)
        #expect(throws: CloudKitError.self) { try temp.store.database(.public).databaseChanges() }
        let defaultError = #expect(throws: CloudKitError.self) { try temp.privateDB.recordZoneChanges(inZoneWith: .default) }
        #expect(defaultError?.message.contains("default zone") == true)
    }

    @Test func databaseChangesListChangedDeletedAndPurgedZones() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let start = try db.currentDatabaseToken()
        let a = try temp.zone("A")
        let b = try temp.zone("B")
        let c = try temp.zone("C")
        let first = try db.databaseChanges(since: start)
        #expect(Set(first.changedZoneIDs.map(\.zoneName)) == ["A", "B", "C"])
        try db.save(Record(recordType: "Item", recordID: RecordID(recordName: "x", zoneID: a)))
        try db.modifyRecordZones(deleting: [b])
        try db.modifyRecordZones(deleting: [c], purging: true)
        let second = try db.databaseChanges(since: first.changeToken)
        #expect(second.changedZoneIDs.map(\.zoneName) == ["A"])
        #expect(second.deletedZoneIDs.map(\.zoneName) == ["B"])
        #expect(second.purgedZoneIDs.map(\.zoneName) == ["C"])
        #expect(second.changeToken == (try db.currentDatabaseToken()))
        let paged = try db.databaseChanges(since: start, resultsLimit: 2)
        #expect(paged.moreComing)
        #expect(paged.changedZoneIDs.count + paged.deletedZoneIDs.count + paged.purgedZoneIDs.count == 2)
    }

    @Test func zonesOnlyInPrivateDatabaseAndDeletionRemovesRecords() throws {
        let temp = try TemporaryStore()
        #expect(throws: CloudKitError.self) { try temp.store.database(.public).modifyRecordZones(saving: [ZoneID(zoneName: "Z")]) }
        #expect(throws: CloudKitError.self) { try temp.store.database(.shared).modifyRecordZones(saving: [ZoneID(zoneName: "Z")]) }
        #expect(throws: CloudKitError.self) { try temp.privateDB.modifyRecordZones(deleting: [.default]) }
        let zone = try temp.zone("Z")
        try temp.privateDB.save(Record(recordType: "Item", recordID: RecordID(recordName: "x", zoneID: zone)))
        #expect(try temp.privateDB.allRecordZones().map(\.zoneID.zoneName) == ["_defaultZone", "Z"])
        #expect(try temp.privateDB.allRecordZones().last?.recordCount == 1)
        try temp.privateDB.modifyRecordZones(deleting: [zone])
        try temp.privateDB.modifyRecordZones(saving: [zone])
        let fetched = try temp.privateDB.records(for: [RecordID(recordName: "x", zoneID: zone)])
        #expect((try? fetched[0].result.get()) == nil)
    }

    @Test(.sqliteOnly("SQLite's checks of the file it opens")) func storeRefusesFilesThatAreNotStores() throws {
        let folder = try TemporaryDirectory("stratus-bad")
        defer { folder.remove() }
        let text = folder.url("notes.txt")
        try Data("just some text, not a database".utf8).write(to: text)
        let error = #expect(throws: CloudKitError.self) { try Store(path: text.path) }
        #expect(error?.code == .badDatabase)
        #expect(error?.message.contains("not an SQLite database") == true)
    }
}
