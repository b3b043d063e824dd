import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusCloud

/// Every operation on alice's shared zone as the owner, a stranger, a read-only participant, a
/// read-write participant and a removed participant, with CloudKit's result in each cell.
@Suite(.onEveryBackend) struct SharingMatrixTests {
    private typealias Fixture = SharedStoreFixture

    private func cells(_ fixture: Fixture, _ operation: (StoreUser, CloudDatabase, ZoneID) throws -> Void) -> [String: String] {
        var result: [String: String] = [:]
        for user in [fixture.alice, fixture.dave, fixture.bob, fixture.carol, fixture.erin] {
            result[user.alias] = Fixture.outcome { try operation(user, fixture.database(user), fixture.zone(for: user)) }
        }
        return result
    }

    @Test func queriesShowTheSharedHierarchyToParticipantsOnly() throws {
        let fixture = try Fixture()
        var seen: [String: [String]] = [:]
        let outcomes = cells(fixture) { user, db, zone in
            seen[user.alias] = try db.records(matching: Query(recordType: "Trip"), inZoneWith: zone).records.map(\.recordName).sorted()
        }
        #expect(outcomes == ["alice": "ok", "dave": "zoneNotFound", "bob": "ok", "carol": "ok", "erin": "zoneNotFound"])
        #expect(seen["alice"] == ["other", "trip-1"])
        #expect(seen["bob"] == ["trip-1"], "the unshared trip in the same zone stays hidden")
        #expect(seen["carol"] == ["trip-1"])
        let stops = try fixture.database(fixture.bob).records(matching: Query(recordType: "Stop"), inZoneWith: fixture.sharedTrips, resultsLimit: 2)
        #expect(stops.records.count == 2)
        #expect(stops.cursor != nil, "a page of a shared zone pages on like any other")
    }

    /// A query sorted on two fields reads groups of rows with only the fields it sorts by and
    /// loads a record when it makes the page: the participant's pages must still hold exactly
    /// the shared records, in order, with a cursor only while one follows.
    @Test func aParticipantPagesThroughTwoSortsOverSharedRecordsOnly() throws {
        let fixture = try Fixture()
        let alice = fixture.database(fixture.alice)
        var records: [Record] = []
        for index in 0..<48 {
            var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "s\(index)", zoneID: fixture.trips),
                              fields: ["rank": .int64(Int64(index % 4)), "title": .string(String(format: "t%02d", 47 - index))])
            // Every third stop is under the shared trip; the rest under the unshared one.
            stop.parent = Reference(recordName: index % 3 == 0 ? "trip-1" : "other")
            records.append(stop)
        }
        _ = try alice.modifyRecords(saving: records)
        let shared = (0..<48).filter { $0 % 3 == 0 }.sorted { ($0 % 4, 47 - $0) < ($1 % 4, 47 - $1) }.map { "s\($0)" }
        // The fixture's own stops have no rank: they come last, by title.
        let expected = shared + ["child-bob", "child-carol", "child-dave", "child-erin", "child-owner", "stop-1"]
        let bob = fixture.database(fixture.bob)
        let query = Query(recordType: "Stop", sortDescriptors: [QuerySort("rank"), QuerySort("title")])
        var page = try bob.records(matching: query, inZoneWith: fixture.sharedTrips, resultsLimit: 5)
        var seen = page.records.map(\.recordName)
        while let cursor = page.cursor {
            page = try bob.records(continuingMatchFrom: cursor, resultsLimit: 5)
            #expect(!page.records.isEmpty, "a cursor promises another record")
            seen += page.records.map(\.recordName)
        }
        #expect(seen == expected)
    }

    @Test func fetchesFollowTheShare() throws {
        let fixture = try Fixture()
        let shared = cells(fixture) { _, db, zone in _ = try db.record(for: RecordID(recordName: "stop-1", zoneID: zone)) }
        #expect(shared == ["alice": "ok", "dave": "zoneNotFound", "bob": "ok", "carol": "ok", "erin": "zoneNotFound"])
        let unshared = cells(fixture) { _, db, zone in _ = try db.record(for: RecordID(recordName: "other", zoneID: zone)) }
        #expect(unshared == ["alice": "ok", "dave": "zoneNotFound", "bob": "unknownItem", "carol": "unknownItem", "erin": "zoneNotFound"])
        // The stranger's own private database has no zone of that name either.
        let privateOfDave = fixture.store.database(.private, user: fixture.dave.recordName)
        #expect(Fixture.outcome { _ = try privateOfDave.record(for: RecordID(recordName: "stop-1", zoneID: fixture.trips)) } == "zoneNotFound")
        #expect(Fixture.outcome {
            _ = try privateOfDave.record(for: RecordID(recordName: "stop-1", zoneID: fixture.sharedTrips))
        } == "zoneNotFound", "naming alice as owner in dave's private database reaches nothing")
    }

    @Test func savesNeedAReadWriteShareAndAParentInside() throws {
        let fixture = try Fixture()
        let creates = cells(fixture) { user, db, zone in
            var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "new-\(user.alias)", zoneID: zone))
            stop.parent = Reference(recordName: "trip-1")
            try db.save(stop)
        }
        #expect(creates == ["alice": "ok", "dave": "zoneNotFound", "bob": "permissionFailure", "carol": "ok", "erin": "zoneNotFound"])
        let created = try fixture.store.database(.private, user: fixture.alice.recordName).record(for: RecordID(recordName: "new-carol", zoneID: fixture.trips))
        #expect(created.creatorUserRecordName == fixture.carol.recordName, "the participant's record lands in the owner's zone")

        let carol = fixture.database(fixture.carol)
        let outside = Fixture.outcome { try carol.save(Record(recordType: "Stop", recordID: RecordID(recordName: "loose", zoneID: fixture.sharedTrips))) }
        #expect(outside == "permissionFailure", "a record with no parent in the share is outside it")
        var edited = try carol.record(for: RecordID(recordName: "stop-1", zoneID: fixture.sharedTrips))
        edited["title"] = .string("edited by carol")
        #expect(Fixture.outcome { try carol.save(edited) } == "ok")
        let shareRecord = Fixture.outcome { try carol.save(Record(recordType: "cloudkit.share", recordID: RecordID(recordName: fixture.share.recordID.recordName, zoneID: fixture.sharedTrips))) }
        #expect(shareRecord == "permissionFailure", "only the owner changes the share")
    }

    @Test func deletesNeedAReadWriteShareAndSpareTheRoot() throws {
        let fixture = try Fixture()
        let deletes = cells(fixture) { user, db, zone in
            try db.deleteRecord(withID: RecordID(recordName: user == fixture.alice ? "child-owner" : "child-\(user.alias)", zoneID: zone))
        }
        #expect(deletes == ["alice": "ok", "dave": "zoneNotFound", "bob": "permissionFailure", "carol": "ok", "erin": "zoneNotFound"])
        let root = Fixture.outcome { try fixture.database(fixture.carol).deleteRecord(withID: RecordID(recordName: "trip-1", zoneID: fixture.sharedTrips)) }
        #expect(root == "permissionFailure", "only the owner deletes a shared root")
    }

    @Test func zoneChangesAndTokensFollowTheShare() throws {
        let fixture = try Fixture()
        var names: [String: Set<String>] = [:]
        let playback = cells(fixture) { user, db, zone in
            names[user.alias] = Set(try db.recordZoneChanges(inZoneWith: zone).changes.map(\.recordID.recordName))
        }
        #expect(playback == ["alice": "ok", "dave": "zoneNotFound", "bob": "ok", "carol": "ok", "erin": "zoneNotFound"])
        #expect(names["alice"]?.contains("other") == true)
        #expect(names["bob"]?.contains("other") == false)
        #expect(names["bob"]?.isSuperset(of: ["trip-1", "stop-1", fixture.share.recordID.recordName]) == true)
        let tokens = cells(fixture) { _, db, zone in _ = try db.currentToken(for: zone) }
        #expect(tokens == ["alice": "ok", "dave": "zoneNotFound", "bob": "ok", "carol": "ok", "erin": "zoneNotFound"])

        // Playback from a participant's token picks up the owner's later change.
        let bob = fixture.database(fixture.bob)
        let token = try bob.currentToken(for: fixture.sharedTrips)
        let alice = fixture.database(fixture.alice)
        var stop = try alice.record(for: RecordID(recordName: "stop-1", zoneID: fixture.trips))
        stop["title"] = .string("moved")
        try alice.save(stop)
        try alice.save(Record(recordType: "Trip", recordID: RecordID(recordName: "private-2", zoneID: fixture.trips)))
        let later = try bob.recordZoneChanges(inZoneWith: fixture.sharedTrips, since: token)
        #expect(later.changes.map(\.recordID.recordName) == ["stop-1"])
    }

    @Test func databaseChangesReportSharedZonesComingAndGoing() throws {
        let fixture = try Fixture()
        var pages: [String: DatabaseChangesPage] = [:]
        let outcomes = cells(fixture) { user, db, _ in pages[user.alias] = try db.databaseChanges() }
        #expect(outcomes.values.allSatisfy { $0 == "ok" })
        #expect(pages["alice"]?.changedZoneIDs.map(\.zoneName) == ["Trips"])
        #expect(pages["bob"]?.changedZoneIDs == [fixture.sharedTrips])
        #expect(pages["carol"]?.changedZoneIDs == [fixture.sharedTrips])
        #expect(pages["dave"]?.changedZoneIDs.isEmpty == true)
        #expect(pages["erin"]?.deletedZoneIDs == [fixture.sharedTrips], "a removed participant hears the zone went")

        let bob = fixture.database(fixture.bob)
        let token = try #require(pages["bob"]?.changeToken)
        #expect(try bob.databaseChanges(since: token).changedZoneIDs.isEmpty)
        try fixture.database(fixture.alice).save(Record(recordType: "Stop", recordID: RecordID(recordName: "s9", zoneID: fixture.trips)))
        #expect(try bob.databaseChanges(since: token).changedZoneIDs == [fixture.sharedTrips], "the owner's change shows in the participant's feed")
        let afterChange = try bob.currentDatabaseToken()
        try fixture.database(fixture.alice).deleteShare(fixture.share.url)
        let gone = try bob.databaseChanges(since: afterChange)
        #expect(gone.deletedZoneIDs == [fixture.sharedTrips], "deleting the share takes the zone out of the shared database")
        #expect(try bob.allRecordZones().isEmpty)
        #expect(SharedStoreFixture.outcome { _ = try bob.record(for: RecordID(recordName: "trip-1", zoneID: fixture.sharedTrips)) } == "zoneNotFound")
    }

    @Test func zonesListEachUsersOwn() throws {
        let fixture = try Fixture()
        let store = fixture.store
        #expect(try store.database(.private, user: fixture.alice.recordName).allRecordZones().map(\.zoneID.zoneName) == ["_defaultZone", "Trips"])
        #expect(try store.database(.private, user: fixture.dave.recordName).allRecordZones().map(\.zoneID.zoneName) == ["_defaultZone"])
        #expect(try store.database(.private).allRecordZones().map(\.zoneID.zoneName) == ["_defaultZone"], "the owner of the store is a user like others")
        let shared = try store.database(.shared, user: fixture.bob.recordName).allRecordZones()
        #expect(shared.map(\.zoneID) == [fixture.sharedTrips])
        #expect(shared.first?.recordCount == 8, "trip-1, its six stops and the share record, not the unshared trip")
        #expect(try store.database(.shared, user: fixture.dave.recordName).allRecordZones().isEmpty)
        let madeInShared = Fixture.outcome { try store.database(.shared, user: fixture.bob.recordName).modifyRecordZones(saving: [ZoneID(zoneName: "Mine")]) }
        #expect(madeInShared == "badDatabase")
    }

    @Test func subscriptionsFireForWhoCanSeeTheChange() throws {
        let fixture = try Fixture()
        let store = fixture.store
        for user in [fixture.bob, fixture.dave] {
            try store.database(.shared, user: user.recordName).save(Subscription.database(subscriptionID: "shared-\(user.alias)"))
            try store.database(.private, user: user.recordName).save(Subscription.database(subscriptionID: "private-\(user.alias)"))
        }
        try store.database(.private, user: fixture.alice.recordName).save(Subscription.recordZone(fixture.trips, subscriptionID: "zone-alice"))
        // carol writes through her shared database: alice (owner) and bob (participant) hear of it.
        var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "by-carol", zoneID: fixture.sharedTrips))
        stop.parent = Reference(recordName: "trip-1")
        try fixture.database(fixture.carol).save(stop)
        func heard(_ user: StoreUser, _ scope: DatabaseScope) throws -> [String] {
            try store.database(scope, user: user.recordName).notifications(includingOwnDevice: true).map(\.subscriptionID)
        }
        #expect(try heard(fixture.alice, .private) == ["zone-alice"])
        #expect(try heard(fixture.bob, .shared) == ["shared-bob"])
        #expect(try heard(fixture.bob, .private).isEmpty)
        #expect(try heard(fixture.dave, .shared).isEmpty, "nothing was shared with dave")
        #expect(try heard(fixture.dave, .private).isEmpty, "alice's private change is not dave's")
    }
}
