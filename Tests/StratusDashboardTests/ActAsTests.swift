import Foundation
import Testing
import StratusEngine
import StratusModel
@testable import StratusDashboard
import StratusCloud

/// Act As: the picker (`A`) and `:user`, the breadcrumb, what each user sees, the choice kept in
/// the store's preferences, and refusals in the status line. Queries go to the real engine.
@Suite struct ActAsTests {
    /// The demo store plus alice, who has her own zone Mine with one Trip.
    private func harness() throws -> Harness {
        try Harness { store in
            let alice = try store.createUser(alias: "alice")
            _ = try store.createUser(alias: "bob")
            let mine = store.database(.private, user: alice.recordName)
            try mine.modifyRecordZones(saving: [ZoneID(zoneName: "Mine")])
            try mine.save(Record(recordType: "Trip", recordID: RecordID(recordName: "alices-trip", zoneID: ZoneID(zoneName: "Mine")),
                                 fields: ["title": .string("アリスの旅 ✈️")]))
        }
    }

    /// Found by the tmux test on a busy machine: the picker opened before the users were
    /// loaded listed only "no user", and a Down-Enter picked it.
    @Test func aPickerOpenedBeforeTheUsersArriveListsThemWhenTheyDo() throws {
        let harness = try harness()
        harness.state.users = []
        harness.autoRun = false
        harness.press(.char("A"))
        guard case .picker(let early)? = harness.state.topModal else {
            Issue.record("no Act As picker")
            return
        }
        #expect(early.items.map(\.label) == ["no user"])
        harness.runPending()
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("the picker closed")
            return
        }
        #expect(picker.items.map(\.label) == ["owner", "alice", "bob", "no user"])
        #expect(picker.list.selected == 0, "on the one acting")
        #expect(harness.state.modals.count == 1)
    }

    @Test func thePickerSwitchesWhoActsAndWhatTheyReach() throws {
        let harness = try harness()
        #expect(!harness.screen().contains(" as "), "the owner acting is the usual case, not called out")
        #expect(harness.state.zones.map(\.zoneID.zoneName).contains("Travel"))
        harness.press(.char("A"))
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("no Act As picker")
            return
        }
        #expect(picker.items.map(\.label) == ["owner", "alice", "bob", "no user"])
        #expect(picker.items[0].detail.hasPrefix("acting"))
        harness.press(.down, .enter)
        let alice = try #require(harness.state.users.first { $0.alias == "alice" })
        #expect(harness.state.acting == .user(alice.recordName))
        #expect(harness.state.zones.map(\.zoneID.zoneName) == ["_defaultZone", "Mine"], "alice's private database, not the owner's")
        #expect(harness.state.preferences.actingUser == alice.recordName, "kept for this store")
        let screen = harness.screen()
        #expect(screen.contains("Stratus ▸ demo.sqlite ▸ as alice ▸ private"))
        #expect(screen.contains("Acting as alice"))
        try harness.selectZone(named: "Mine")
        harness.press(.enter)
        #expect(harness.state.query.records.map(\.recordName) == ["alices-trip"])
    }

    @Test func theCommandLineActsAsAnAliasOrNoUser() throws {
        let harness = try harness()
        #expect(Dashboard.completions(harness.state, for: "user a") == ["alice"])
        harness.press(.char(":"))
        harness.type("user bob")
        harness.press(.enter)
        #expect(harness.screen().contains("▸ as bob ▸"))
        #expect(harness.state.zones.map(\.zoneID.zoneName) == ["_defaultZone"])
        harness.press(.char(":"))
        harness.type("user none")
        harness.press(.enter)
        #expect(harness.state.acting == .anonymous)
        #expect(harness.state.preferences.actingUser == "none")
        // No user reaches no private database: CloudKit's error in the status line.
        let status = try #require(harness.state.status)
        #expect(status.kind == .error)
        #expect(status.text.contains("notAuthenticated (9)"))
        harness.press(.char(":"))
        harness.type("user zed")
        harness.press(.enter)
        #expect(harness.state.status?.text.contains("No user zed in this store") == true)
        #expect(harness.state.acting == .anonymous, "an unknown name changes nothing")
    }

    @Test func aRefusedWriteShowsCloudKitsErrorInTheStatusLine() throws {
        let harness = try harness()
        harness.press(.char(":"))
        harness.type("user bob")
        harness.press(.enter)
        harness.press(.char(":"))
        harness.type("db public")
        harness.press(.enter)
        // The owner's public Users record is the owner's to write; bob is refused.
        let owner = harness.store.owner
        var record = try harness.store.database(.public).record(for: RecordID(recordName: owner))
        record["roles"] = .list(.int64, [.int64(1)])
        harness.run(.record(.save(job: harness.state.startJob(.save, "save"), record: record, policy: .allKeys, scope: .public, isNew: false)))
        #expect(harness.state.status?.text.contains("permissionFailure (10)") == true)
    }
}
