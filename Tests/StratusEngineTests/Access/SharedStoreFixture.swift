import Foundation
import StratusModel
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// A store where alice shares the trip `trip-1` (and the stops under it) of her zone Trips:
/// bob reads it, carol writes it, erin was removed, dave is a stranger; `other` in the same
/// zone is not shared.
final class SharedStoreFixture {
    let temp: TemporaryStore
    let alice: StoreUser, bob: StoreUser, carol: StoreUser, dave: StoreUser, erin: StoreUser
    let share: Share
    let trips = ZoneID(zoneName: "Trips")
    /// Trips as the participants name it in their shared database.
    let sharedTrips: ZoneID

    init() throws {
        temp = try TemporaryStore()
        let store = temp.store
        alice = try store.createUser(alias: "alice")
        bob = try store.createUser(alias: "bob")
        carol = try store.createUser(alias: "carol")
        dave = try store.createUser(alias: "dave")
        erin = try store.createUser(alias: "erin")
        sharedTrips = ZoneID(zoneName: "Trips", ownerName: alice.recordName)
        let mine = store.database(.private, user: alice.recordName)
        try mine.modifyRecordZones(saving: [trips])
        var records = [
            Record(recordType: "Trip", recordID: RecordID(recordName: "trip-1", zoneID: trips), fields: ["title": .string("Lisbon")]),
            Record(recordType: "Trip", recordID: RecordID(recordName: "other", zoneID: trips), fields: ["title": .string("Secret")]),
        ]
        for name in ["stop-1", "child-owner", "child-bob", "child-carol", "child-dave", "child-erin"] {
            var stop = Record(recordType: "Stop", recordID: RecordID(recordName: name, zoneID: trips), fields: ["title": .string(name)])
            stop.parent = Reference(recordName: "trip-1")
            records.append(stop)
        }
        _ = try mine.modifyRecords(saving: records)
        share = try mine.createShare(rootRecord: "trip-1", inZoneWith: trips, title: "Lisbon")
        try mine.addParticipant(bob.recordName, permission: .readOnly, toShare: share.url)
        try mine.addParticipant(carol.recordName, permission: .readWrite, toShare: share.url)
        try mine.addParticipant(erin.recordName, permission: .readWrite, toShare: share.url)
        for user in [bob, carol, erin] { try store.database(.shared, user: user.recordName).acceptShare(share.url) }
        try mine.removeParticipant(erin.recordName, fromShare: share.url)
    }

    var store: Store { temp.store }

    /// The database a user reaches Trips through: the owner's private one, everyone else's shared one.
    func database(_ user: StoreUser) -> CloudDatabase {
        store.database(user == alice ? .private : .shared, user: user.recordName)
    }

    /// Trips as `user` names it.
    func zone(for user: StoreUser) -> ZoneID { user == alice ? trips : sharedTrips }

    /// "ok", or the name of the CloudKit error `body` threw.
    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let error as CloudKitError {
            return error.code.name
        } catch {
            return "\(error)"
        }
    }
}
