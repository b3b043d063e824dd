import Foundation
import Testing
import StratusEngine
import StratusModel
@testable import StratusDashboard
import StratusCloud

/// Making a share, joining one by its URL and changing permissions, from the Sharing tab, on
/// the real engine (alice owns the share of trip-1 in Trips, bob accepted it, carol is not in it).
@Suite struct SharingChangesTests {
    let base = SharingTabTests()

    func row(_ harness: Harness, where match: (SharingTabState.Row) -> Bool) throws {
        let found = harness.state.sharing.rows.firstIndex(where: match)
        let index = try #require(found)
        harness.press(.char("g"))
        for _ in 0..<index { harness.press(.down) }
    }

    @Test func theOwnerSharesAZoneAndAnyoneWithTheURLJoins() throws {
        let (harness, _) = try base.harness()
        let alice = try #require(harness.store.users().first { $0.alias == "alice" })
        let places = ZoneID(zoneName: "Places")
        let mine = harness.store.database(.private, user: alice.recordName)
        try mine.modifyRecordZones(saving: [places])
        _ = try mine.modifyRecords(saving: [Record(recordType: "Place", recordID: RecordID(recordName: "place-1", zoneID: places),
                                                   fields: ["name": .string("東京タワー")])])
        base.actAs(harness, "alice")
        harness.handle(Dashboard.switchZone(&harness.state, to: "Places"))
        harness.press(.char("7"), .char("n"))
        guard case .picker(let what)? = harness.state.topModal else { Issue.record("no picker: \(harness.state.status?.text ?? "")"); return }
        #expect(what.items.map(\.label) == ["zone Places", "record place-1"])
        harness.press(.enter)
        guard case .picker(let who)? = harness.state.topModal else { Issue.record("no permission picker"); return }
        #expect(who.items.map(\.label).first == "invited users only")
        harness.press(.down, .enter)
        let share = try #require(harness.state.sharing.owned.first { $0.recordID.zoneID.zoneName == "Places" })
        #expect(share.isZoneWide)
        #expect(share.publicPermission == .readOnly)
        #expect(harness.state.status?.text == "Shared zone Places (anyone with the URL: read-only); y copies its URL.")

        // carol, invited by no one, joins through the URL and reads the zone.
        base.actAs(harness, "carol")
        harness.press(.char("7"), .char("J"))
        harness.type(share.url)
        harness.press(.enter)
        #expect(harness.state.sharing.accepted.map(\.url) == [share.url], "\(harness.state.status?.text ?? "")")
        #expect(harness.state.status?.text == "Accepted alice's share of Places; Enter on it opens the zone in the shared database.")
        try row(harness) { if case .share(let found, owned: false) = $0 { return found.url == share.url } else { return false } }
        harness.press(.enter)
        #expect(harness.state.scope == .shared)
        #expect(harness.state.query.records.map(\.recordName) == ["place-1"])
    }

    @Test func joiningAPrivateShareOneIsNotInvitedToIsRefused() throws {
        let (harness, url) = try base.harness()
        base.actAs(harness, "carol")
        harness.press(.char("7"), .char("J"))
        harness.press(.enter)
        guard case .textInput(let input)? = harness.state.topModal else { Issue.record("the URL dialog closed on an empty URL"); return }
        #expect(input.error == "Paste the share's URL (the owner copies it with y on this tab).")
        harness.type(url)
        harness.press(.enter)
        #expect(harness.state.sharing.accepted.isEmpty)
        #expect(harness.state.status?.text.contains("Cannot accept the share: you are not invited to it.") == true)
    }

    @Test func theOwnerChangesAParticipantsAndTheSharesPermission() throws {
        let (harness, url) = try base.harness()
        base.actAs(harness, "alice")
        harness.press(.char("7"))
        try row(harness) { if case .participant(_, let participant) = $0 { return participant.alias == "bob" } else { return false } }
        harness.press(.char("p"))
        guard case .picker(let may)? = harness.state.topModal else { Issue.record("no permission picker"); return }
        #expect(may.title == "bob may")
        #expect(may.selectedItem?.label == SharePermission.readOnly.description, "the picker starts on bob's permission")
        harness.press(.down, .enter)
        #expect(harness.screen().contains("bob  read-write  accepted"))
        try row(harness) { if case .share(let share, owned: true) = $0 { return share.url == url } else { return false } }
        harness.press(.char("p"))
        harness.press(.down, .down, .enter)
        #expect(harness.state.sharing.owned.first { $0.url == url }?.publicPermission == .readWrite)
        #expect(harness.state.status?.text == "Anyone with the URL may now join (read-write).")
        // Read back as the engine sees it.
        let alice = try #require(harness.store.users().first { $0.alias == "alice" })
        let share = try harness.store.database(.private, user: alice.recordName).share(url)
        #expect(share.publicPermission == .readWrite)
        #expect(share.participants.first { $0.alias == "bob" }?.permission == .readWrite)
    }
}
