import Foundation
import Testing
import StratusEngine
import StratusModel
@testable import StratusDashboard
import StratusCloud

/// The Sharing tab and the inspector's share line, on the real engine: alice shares trip-1 of
/// her zone Trips; bob accepted it; carol is not in it.
@Suite struct SharingTabTests {
    func harness() throws -> (Harness, url: String) {
        var url = ""
        let harness = try Harness { store in
            let alice = try store.createUser(alias: "alice")
            let bob = try store.createUser(alias: "bob")
            _ = try store.createUser(alias: "carol")
            let mine = store.database(.private, user: alice.recordName)
            let trips = ZoneID(zoneName: "Trips")
            try mine.modifyRecordZones(saving: [trips])
            var stop = Record(recordType: "Trip", recordID: RecordID(recordName: "stop-1", zoneID: trips), fields: ["title": .string("Belém")])
            stop.parent = Reference(recordName: "trip-1")
            _ = try mine.modifyRecords(saving: [
                Record(recordType: "Trip", recordID: RecordID(recordName: "trip-1", zoneID: trips), fields: ["title": .string("Lisbon 🇵🇹")]), stop,
            ])
            let share = try mine.createShare(rootRecord: "trip-1", inZoneWith: trips, title: "Lisbon")
            try mine.addParticipant(bob.recordName, permission: .readOnly, toShare: share.url)
            try store.database(.shared, user: bob.recordName).acceptShare(share.url)
            url = share.url
        }
        return (harness, url)
    }

    func actAs(_ harness: Harness, _ alias: String) {
        harness.press(.char(":"))
        harness.type("user \(alias)")
        harness.press(.enter)
    }

    @Test func theOwnerSeesParticipantsInvitesAndRemoves() throws {
        let (harness, url) = try harness()
        actAs(harness, "alice")
        harness.press(.char("7"))
        var screen = harness.screen()
        #expect(screen.contains("7 Sharing"))
        #expect(screen.contains("Shares you own"))
        #expect(screen.contains("Trips · record trip-1 “Lisbon” · public: none · https://www.icloud.com/share/"))
        #expect(screen.contains("bob  read-only  accepted"))
        #expect(screen.contains("You accepted no shares"))
        // Invite carol, read-write.
        harness.press(.down)
        harness.press(.char("y"))
        #expect(harness.copied.withLock { $0 } == [url])
        harness.press(.char("a"))
        guard case .picker(let who)? = harness.state.topModal else {
            Issue.record("no invite picker")
            return
        }
        #expect(who.items.map(\.label) == ["owner", "carol"], "bob and alice are in the share already")
        harness.press(.down, .enter)  // carol
        harness.press(.down, .enter)  // read-write
        screen = harness.screen()
        #expect(screen.contains("carol  read-write  invited"))
        #expect(harness.state.status?.text.contains("Invited them (read-write)") == true)
        // Remove bob (asks first).
        let bobRow = try #require(harness.state.sharing.rows.firstIndex { row in
            if case .participant(_, let participant) = row { return participant.alias == "bob" }
            return false
        })
        harness.press(.char("g"))
        for _ in 0..<bobRow { harness.press(.down) }
        harness.press(.char("d"))
        #expect(harness.screen().contains("Take bob out of the share?"))
        harness.press(.char("y"))
        #expect(harness.screen().contains("bob  read-only  removed"))
    }

    @Test func aParticipantOpensTheSharedZoneAndTheInspectorSaysItIsShared() throws {
        let (harness, _) = try harness()
        actAs(harness, "bob")
        harness.press(.char("7"))
        #expect(harness.screen().contains("Shares you accepted"))
        #expect(harness.screen().contains("from alice"))
        let accepted = try #require(harness.state.sharing.rows.lastIndex { row in
            if case .share = row { return true }
            return false
        })
        for _ in 0..<accepted { harness.press(.down) }
        harness.press(.enter)
        #expect(harness.state.scope == .shared)
        #expect(harness.state.zone.zoneName == "Trips")
        #expect(harness.state.zone.ownerName != ZoneID.defaultOwnerName, "a shared zone is named with its owner")
        #expect(Set(harness.state.query.records.map(\.recordName)) == ["trip-1", "stop-1"])
        let stopIndex = try #require(harness.state.query.records.firstIndex { $0.recordName == "stop-1" })
        harness.press(.char("g"))
        for _ in 0..<stopIndex { harness.press(.down) }
        harness.press(.enter)
        #expect(harness.screen().contains("inside the share of trip-1, owner alice, 1 participant"))
        // The Zones tab names the owner by alias.
        harness.press(.escape, .char("4"))
        #expect(harness.screen().contains("alice"))
    }
}
