import Foundation
import Testing
import StratusModel
@testable import StratusEngine
import StratusCloud

/// CloudKit's rules for making, joining and ending shares.
@Suite(.onEveryBackend) struct ShareRulesTests {
    private typealias Fixture = SharedStoreFixture

    @Test func aRecordTakesPartInOneShareOnly() throws {
        let fixture = try Fixture()
        let alice = fixture.database(fixture.alice)
        func share(_ root: String?) -> String {
            Fixture.outcome { try alice.createShare(rootRecord: root, inZoneWith: fixture.trips) }
        }
        #expect(share("trip-1") == "alreadyShared", "the root itself")
        #expect(share("stop-1") == "alreadyShared", "a record under the shared root")
        #expect(share(nil) == "alreadyShared", "a zone holding record shares")
        #expect(share("other") == "ok", "an unshared record of the same zone")
        var top = Record(recordType: "Trip", recordID: RecordID(recordName: "top", zoneID: fixture.trips))
        top["title"] = .string("above")
        try alice.save(top)
        var trip = try alice.record(for: RecordID(recordName: "trip-1", zoneID: fixture.trips))
        trip.parent = Reference(recordName: "top")
        try alice.save(trip)
        #expect(share("top") == "alreadyShared", "a record above a shared root")
        #expect(share("missing") == "unknownItem")
        #expect(Fixture.outcome { try alice.createShare(inZoneWith: .default) } == "invalidArguments", "the default zone cannot be shared")
        let publicDB = fixture.store.database(.public, user: fixture.alice.recordName)
        #expect(Fixture.outcome { try publicDB.createShare(inZoneWith: fixture.trips) } == "badDatabase")
    }

    @Test func aZoneShareSharesEveryRecordOfTheZone() throws {
        let fixture = try Fixture()
        let alice = fixture.database(fixture.alice)
        let notes = ZoneID(zoneName: "Notes")
        try alice.modifyRecordZones(saving: [notes])
        try alice.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: notes)))
        let share = try alice.createShare(inZoneWith: notes, publicPermission: .readOnly)
        #expect(share.recordID.recordName == "cloudkit.zoneshare")
        #expect(share.isZoneWide)
        #expect(Fixture.outcome { try alice.createShare(rootRecord: "n1", inZoneWith: notes) } == "alreadyShared")
        // Anyone with the URL of a public share joins with its permission.
        let dave = fixture.store.database(.shared, user: fixture.dave.recordName)
        let joined = try dave.acceptShare(share.url)
        #expect(joined.participants.contains { $0.userRecordName == fixture.dave.recordName && $0.type == .publicUser && $0.status == .accepted })
        let zone = ZoneID(zoneName: "Notes", ownerName: fixture.alice.recordName)
        #expect(try dave.records(matching: Query(recordType: "Note"), inZoneWith: zone).records.map(\.recordName) == ["n1"])
        try alice.save(Record(recordType: "Note", recordID: RecordID(recordName: "n2", zoneID: notes)))
        #expect(try dave.records(matching: Query(recordType: "Note"), inZoneWith: zone).records.count == 2, "records made later are shared too")
        #expect(Fixture.outcome { try dave.save(Record(recordType: "Note", recordID: RecordID(recordName: "n3", zoneID: zone))) } == "permissionFailure")
        #expect(Fixture.outcome { try alice.addParticipant(fixture.bob.recordName, permission: .readOnly, toShare: share.url) } == "invalidArguments",
                "public and private participants do not mix")
        try alice.setPublicPermission(.none, ofShare: share.url)
        #expect(Fixture.outcome { _ = try dave.records(matching: Query(recordType: "Note"), inZoneWith: zone) } == "zoneNotFound",
                "going back to none removes who joined")
    }

    @Test func acceptingNeedsAnInvitation() throws {
        let fixture = try Fixture()
        let dave = fixture.store.database(.shared, user: fixture.dave.recordName)
        #expect(Fixture.outcome { try dave.acceptShare(fixture.share.url) } == "permissionFailure")
        #expect(Fixture.outcome { try dave.acceptShare("https://www.icloud.com/share/0000000000000000000000000") } == "unknownItem")
        let erin = fixture.store.database(.shared, user: fixture.erin.recordName)
        #expect(Fixture.outcome { try erin.acceptShare(fixture.share.url) } == "permissionFailure", "a removed participant cannot come back alone")
        #expect(Fixture.outcome { try fixture.store.database(.shared, caller: .anonymous).acceptShare(fixture.share.url) } == "notAuthenticated")
        let bob = fixture.store.database(.shared, user: fixture.bob.recordName)
        #expect(Fixture.outcome { try bob.acceptShare(fixture.share.url) } == "ok", "accepting again changes nothing")
        #expect(Fixture.outcome { try bob.addParticipant(fixture.dave.recordName, permission: .readOnly, toShare: fixture.share.url) } == "permissionFailure",
                "only the owner invites")
        // Invited again, erin is back once she accepts.
        try fixture.database(fixture.alice).addParticipant(fixture.erin.recordName, permission: .readOnly, toShare: fixture.share.url)
        #expect(Fixture.outcome { try erin.acceptShare(fixture.share.url) } == "ok")
        #expect(try erin.allRecordZones().map(\.zoneID) == [fixture.sharedTrips])
    }

    @Test func aShareHoldsAtMostAHundredParticipants() throws {
        let fixture = try Fixture()
        let alice = fixture.database(fixture.alice)
        // bob and carol are in; 98 more reach the limit.
        for index in 0..<98 {
            let user = try fixture.store.createUser(alias: "guest\(index)")
            try alice.addParticipant(user.recordName, permission: .readOnly, toShare: fixture.share.url)
        }
        let extra = try fixture.store.createUser(alias: "one-too-many")
        let refused = #expect(throws: CloudKitError.self) { try alice.addParticipant(extra.recordName, permission: .readOnly, toShare: fixture.share.url) }
        #expect(refused?.code == .tooManyParticipants)
        #expect(refused?.message.contains("100") == true)
    }

    @Test func leavingAndDeletingEndAccess() throws {
        let fixture = try Fixture()
        let carol = fixture.database(fixture.carol)
        try carol.deleteShare(fixture.share.url)
        #expect(try carol.allRecordZones().isEmpty, "a participant who deletes the share leaves it")
        #expect(try fixture.database(fixture.bob).allRecordZones().count == 1, "the others keep it")
        #expect(Fixture.outcome { try fixture.store.database(.shared, user: fixture.dave.recordName).deleteShare(fixture.share.url) } == "permissionFailure")
        // Deleting the root deletes the share (CloudKit's rule); the URL stays the root's.
        let alice = fixture.database(fixture.alice)
        try alice.deleteRecord(withID: RecordID(recordName: "trip-1", zoneID: fixture.trips))
        #expect(Fixture.outcome { _ = try alice.share(fixture.share.url) } == "unknownItem")
        #expect(try alice.shares().owned.isEmpty)
        #expect(try fixture.database(fixture.bob).allRecordZones().isEmpty)
    }

    /// CloudKit: "If a participant attempts to delete the share, CloudKit removes the
    /// participant." A read-only participant too; the share and its records stay for the others.
    @Test func aParticipantDeletingTheShareRecordLeavesTheShare() throws {
        let fixture = try Fixture()
        let bob = fixture.database(fixture.bob)
        let shareRecord = RecordID(recordName: fixture.share.recordID.recordName, zoneID: fixture.sharedTrips)
        let result = try bob.modifyRecords(saving: [], deleting: [shareRecord])
        try result.deleteResults[0].result.get()
        #expect(try bob.allRecordZones().isEmpty, "bob left: the zone is gone from his shared database")
        #expect(try fixture.database(fixture.carol).allRecordZones().count == 1, "carol keeps the share")
        let alice = fixture.database(fixture.alice)
        let share = try alice.share(fixture.share.url)
        #expect(share.participants.first { $0.userRecordName == fixture.bob.recordName }?.status == .removed)
        #expect(try alice.record(for: RecordID(recordName: "trip-1", zoneID: fixture.trips))["title"] == .string("Lisbon"))
        // The shared root is still the owner's alone to delete.
        let carol = fixture.database(fixture.carol)
        #expect(Fixture.outcome { try carol.deleteRecord(withID: RecordID(recordName: "trip-1", zoneID: fixture.sharedTrips)) } == "permissionFailure")
    }

    @Test func theURLStaysWhenTheSameRootIsSharedAgain() throws {
        let fixture = try Fixture()
        let alice = fixture.database(fixture.alice)
        try alice.deleteShare(fixture.share.url)
        #expect(try alice.record(for: RecordID(recordName: "trip-1", zoneID: fixture.trips)).recordName == "trip-1", "stopping sharing keeps the records")
        let again = try alice.createShare(rootRecord: "trip-1", inZoneWith: fixture.trips)
        #expect(again.url == fixture.share.url)
        #expect(again.shortGUID.count == 25)
        #expect(again.participants.map(\.type) == [.owner], "a new share starts with its owner only")
    }

    @Test func listsSayWhatIOwnAndWhatIAccepted() throws {
        let fixture = try Fixture()
        let owned = try fixture.database(fixture.alice).shares()
        #expect(owned.owned.map(\.url) == [fixture.share.url])
        #expect(owned.accepted.isEmpty)
        let statuses = Dictionary(uniqueKeysWithValues: try #require(owned.owned.first).participants.map { ($0.alias, "\($0.permission) \($0.status)") })
        #expect(statuses == ["alice": "read-write accepted", "bob": "read-only accepted", "carol": "read-write accepted", "erin": "read-write removed"])
        let bobs = try fixture.database(fixture.bob).shares()
        #expect(bobs.owned.isEmpty)
        #expect(bobs.accepted.map(\.recordID.zoneID) == [fixture.sharedTrips])
        #expect(bobs.accepted.first?.title == "Lisbon")
        #expect(Fixture.outcome { _ = try fixture.store.database(.shared, user: fixture.dave.recordName).share(fixture.share.url) } == "permissionFailure")
    }
}
