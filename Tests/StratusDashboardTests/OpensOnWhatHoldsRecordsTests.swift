import Foundation
@testable import StratusDashboard
import StratusCloud
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// A database opened without a zone named shows the busiest zone and type the user can read,
/// never an empty default zone or a type that has no records there.
@Suite struct OpensOnWhatHoldsRecordsTests {
    func command(_ harness: Harness, _ line: String) {
        harness.press(.char(":"))
        harness.type(line)
        harness.press(.enter)
    }

    @Test func theSharedDatabaseOpensOnTheZoneSharedWithTheUser() throws {
        let harness = try Harness(records: Fixtures.trips(2)) { store in
            let alice = try store.createUser(alias: "alice")
            let bob = try store.createUser(alias: "bob")
            let mine = store.database(.private, user: alice.recordName)
            let lisbon = ZoneID(zoneName: "Lisbon")
            try mine.modifyRecordZones(saving: [lisbon])
            _ = try mine.modifyRecords(saving: [Record(recordType: "Trip", recordID: RecordID(recordName: "lisbon-1", zoneID: lisbon),
                                                       fields: ["title": .string("Lisbon 🇵🇹")])])
            let share = try mine.createShare(rootRecord: nil, inZoneWith: lisbon, title: "Lisbon")
            try mine.addParticipant(bob.recordName, permission: .readOnly, toShare: share.url)
            try store.database(.shared, user: bob.recordName).acceptShare(share.url)
        }
        command(harness, "user bob")
        command(harness, "db shared")
        #expect(harness.state.scope == .shared)
        #expect(harness.state.zone.zoneName == "Lisbon", "not the default zone, which a shared database does not have")
        #expect(harness.state.zone.ownerName != ZoneID.defaultOwnerName)
        #expect(harness.state.query.records.map(\.recordName) == ["lisbon-1"])
        #expect(harness.state.query.error == nil)
        #expect(harness.state.status?.text.hasSuffix("Showing Lisbon, the zone with the most records (no default zone here).") == true,
                "\(harness.state.status?.text ?? "")")
    }

    @Test func thePublicDatabaseOpensOnATypeItHoldsRecordsOf() throws {
        let harness = try Harness(recordType: "Trip", demo: true)
        #expect(harness.state.query.recordType == "Trip")
        command(harness, "db public")
        #expect(harness.state.scope == .public)
        #expect(harness.state.zone == .default)
        #expect(harness.state.query.recordType == "Announcement", "the demo's public database holds announcements, not trips")
        #expect(harness.state.query.records.count == 10)
    }

    @Test func aZoneNamedByTheUserIsKeptEvenWhenEmpty() throws {
        let harness = try Harness(records: Fixtures.trips(3)) { store in
            try store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Empty")])
        }
        command(harness, "zone Empty")
        #expect(harness.state.zone.zoneName == "Empty")
        harness.send(.zones(.loaded(job: 0, scope: .private, .success(try harness.database.allRecordZones()))))
        #expect(harness.state.zone.zoneName == "Empty", "only a database opened without a zone named moves")
    }
}

/// The Zones tab opens on the zone in use, with counts another process changed since.
@Suite struct ZonesTabIsCurrentTests {
    @Test func theTabOpensOnTheZoneInUseWithTheStoresCountsNow() throws {
        let harness = try Harness(records: Fixtures.trips(4)) { store in
            try store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Another")])
        }
        #expect(harness.state.zone.zoneName == "Travel")
        // Another process writes while the dashboard shows the Query tab.
        let written = Fixtures.trips(3, zone: ZoneID(zoneName: "Another")).map { Record(recordType: $0.recordType, recordID: $0.recordID, fields: $0.fields) }
        _ = try harness.database.modifyRecords(saving: written).savedRecords()
        harness.press(.char("4"))
        let selected = harness.state.zones[harness.state.zonesTab.list.selected]
        #expect(selected.zoneID.zoneName == "Travel", "the cursor is on the zone in use, not the first")
        #expect(harness.state.zones.first { $0.zoneID.zoneName == "Another" }?.recordCount == 3, "counts as the store holds them now")
    }
}
