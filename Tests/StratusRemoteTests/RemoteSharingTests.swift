import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusTestSupport
import Testing

/// Shares over CloudKit Web Services against a real server on loopback: the listing (share
/// records found by query in each zone, resolved by short GUID) is the one the store lists,
/// and making, opening up, inviting to and accepting a share reach the server's store.
@Suite struct RemoteSharingTests {
    /// A share as the remote can know it: users by record name (CKWS has no aliases).
    static func byRecordName(_ share: Share) -> Share {
        var share = share
        share.ownerAlias = share.ownerRecordName
        share.participants = share.participants.map { var participant = $0; participant.alias = participant.userRecordName; return participant }
        return share
    }

    @Test func theRemoteListingIsTheStoresAndItsChangesReachTheStore() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let alice = try store.createUser(alias: "alice")
        let owner = store.database(.private, caller: .user(store.owner))
        let aliceDatabase = store.database(.private, caller: .user(alice.recordName))
        // The owner shares a zone and a record; alice shares a record the owner accepts.
        let travel = ZoneID(zoneName: "Travel"), library = ZoneID(zoneName: "Library"), notes = ZoneID(zoneName: "Notes")
        try owner.modifyRecordZones(saving: [travel, library])
        try owner.save(Record(recordType: "Book", recordID: RecordID(recordName: "book-1", zoneID: library), fields: ["title": .string("Dune")]))
        try owner.createShare(rootRecord: nil, inZoneWith: travel, publicPermission: .readOnly, title: nil, recordName: nil, fields: [:])
        let books = try owner.createShare(rootRecord: "book-1", inZoneWith: library, publicPermission: .none, title: "Books", recordName: nil, fields: [:])
        try owner.addParticipant(alice.recordName, permission: .readWrite, toShare: books.url)
        try aliceDatabase.modifyRecordZones(saving: [notes])
        try aliceDatabase.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: notes)))
        let aliceShare = try aliceDatabase.createShare(rootRecord: "n1", inZoneWith: notes, publicPermission: .readWrite, title: nil, recordName: nil, fields: [:])
        try owner.acceptShare(aliceShare.url)

        let remote = RemoteCloudService(client: harness.client()).database(.private)
        func expectSameListing(_ comment: Comment) async throws {
            let local = try owner.shares()
            let listed = try await blocking { try remote.shares() }
            #expect(listed.owned == local.owned.map(Self.byRecordName), comment)
            #expect(Set(listed.accepted) == Set(local.accepted.map(Self.byRecordName)), comment)
        }
        try await expectSameListing("as shared on the store")
        #expect(try owner.shares().owned.count == 2 && owner.shares().accepted.count == 1)

        // Changes made over CKWS are the store's, and the listing still agrees.
        try owner.modifyRecordZones(saving: [ZoneID(zoneName: "Trips")])
        try owner.save(Record(recordType: "Trip", recordID: RecordID(recordName: "trip-1", zoneID: ZoneID(zoneName: "Trips"))))
        let made = try await blocking { try remote.createShare(rootRecord: "trip-1", inZoneWith: ZoneID(zoneName: "Trips"), publicPermission: .none,
                                                                title: "Lisbon", recordName: nil, fields: [:]) }
        #expect(made.rootRecordName == "trip-1" && made.title == "Lisbon")
        #expect(try owner.shareStatus(of: RecordID(recordName: "trip-1", zoneID: ZoneID(zoneName: "Trips")))?.share.url == made.url)
        let opened = try await blocking { try remote.setPublicPermission(.readOnly, ofShare: made.url) }
        #expect(opened.publicPermission == .readOnly)
        _ = try await blocking { try remote.addParticipant(alice.recordName, permission: .readOnly, toShare: books.url) }
        #expect(try owner.shares().owned.first { $0.url == books.url }?.participants.first { $0.userRecordName == alice.recordName }?.permission == .readOnly)
        try await expectSameListing("after changes over CKWS")
        let removed = try await blocking { try remote.removeParticipant(alice.recordName, fromShare: books.url) }
        #expect(!removed.participants.contains { $0.userRecordName == alice.recordName && $0.status != .removed })
        try await expectSameListing("after a participant was removed")

        // Accepting by URL, as the signed-in user: the zone then lists among the accepted.
        let bob = try store.createUser(alias: "bob")
        let bobDatabase = store.database(.private, caller: .user(bob.recordName))
        try bobDatabase.modifyRecordZones(saving: [ZoneID(zoneName: "Music")])
        let bobShare = try bobDatabase.createShare(rootRecord: nil, inZoneWith: ZoneID(zoneName: "Music"), publicPermission: .readOnly,
                                                   title: nil, recordName: nil, fields: [:])
        let accepted = try await blocking { try remote.acceptShare(bobShare.url) }
        #expect(accepted.ownerRecordName == bob.recordName && accepted.isZoneWide)
        #expect(try owner.shares().accepted.contains { $0.url == bobShare.url })
        try await expectSameListing("after accepting by URL")

        // Only the owner changes a share: refused before any write, with a typed error.
        let refused = await failure { try remote.setPublicPermission(.none, ofShare: bobShare.url) }
        #expect(refused?.code == .permissionFailure)
    }
}
