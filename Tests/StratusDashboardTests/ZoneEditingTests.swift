import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// The Zones tab makes zones (private database only, names checked as the engine checks
/// them) and deletes them after a confirmation that says what goes with them.
@Suite struct ZoneEditingTests {
    func zoneNames(_ harness: Harness) throws -> [String] {
        try harness.database.allRecordZones().map(\.zoneID.zoneName)
    }

    @Test func makesAZoneWithANameCheckedAsTyped() throws {
        let harness = try Harness()
        harness.press(.char("4"))
        #expect(harness.screen().contains("n new zone  d delete"))
        harness.press(.char("n"))
        guard case .textInput(let opened)? = harness.state.topModal else {
            Issue.record("no name dialog")
            return
        }
        #expect(opened.purpose is NewZoneEntry)
        #expect(opened.error == nil)
        // A reserved name is refused as it is typed, and Enter keeps the dialog open.
        harness.type("_mine")
        guard case .textInput(let reserved)? = harness.state.topModal else { Issue.record("expected the text input, got \(String(describing: harness.state.topModal))"); return }
        #expect(reserved.error == "Zone names starting with '_' are reserved for CloudKit's own zones.")
        #expect(harness.screen().contains("reserved for CloudKit"))
        harness.press(.enter)
        guard case .textInput? = harness.state.topModal else {
            Issue.record("the dialog closed on a bad name")
            return
        }
        #expect(try !zoneNames(harness).contains("_mine"))
        // An existing zone is said to exist.
        harness.press(.ctrl("u"))
        harness.type("Travel")
        guard case .textInput(let existing)? = harness.state.topModal else { Issue.record("expected the text input, got \(String(describing: harness.state.topModal))"); return }
        #expect(existing.error == "Zone Travel already exists in the private database.")
        harness.press(.ctrl("u"))
        harness.type("旅 2026")
        guard case .textInput(let fine)? = harness.state.topModal else { Issue.record("expected the text input, got \(String(describing: harness.state.topModal))"); return }
        #expect(fine.error == nil)
        harness.press(.enter)
        #expect(harness.state.topModal == nil)
        #expect(try zoneNames(harness).contains("旅 2026"))
        #expect(harness.state.zones.map(\.zoneID.zoneName).contains("旅 2026"))
        let selected = harness.state.zones[harness.state.zonesTab.list.selected]
        #expect(selected.zoneID.zoneName == "旅 2026")
        #expect(harness.state.status?.text == "Made zone 旅 2026; Enter uses it.")
        #expect(harness.state.jobs.isEmpty)
        // Enter uses it.
        harness.press(.enter)
        #expect(harness.state.zone.zoneName == "旅 2026")
    }

    @Test func deletesTheCurrentZoneAfterSayingHowManyRecordsGo() throws {
        let harness = try Harness(zone: "Library", recordType: "Book")
        let library = ZoneID(zoneName: "Library")
        let count = try #require(try harness.database.allRecordZones().first { $0.zoneID == library }?.recordCount)
        #expect(count > 1)
        try harness.selectZone(named: "Library")
        harness.press(.char("d"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("delete did not ask")
            return
        }
        #expect(confirm.message.contains("Delete zone Library and its \(count) records from the private database?"))
        #expect(harness.screen().contains("Delete zone"))
        // n keeps it.
        harness.press(.char("n"))
        #expect(harness.state.topModal == nil)
        #expect(try zoneNames(harness).contains("Library"))
        harness.press(.char("d"), .char("y"))
        #expect(try !zoneNames(harness).contains("Library"))
        #expect(!harness.state.zones.contains { $0.zoneID == library })
        // It was the current zone: the dashboard moves to the default zone and runs there.
        #expect(harness.state.zone == .default)
        #expect(harness.screen().contains("▸ private ▸ _defaultZone "))
        #expect(harness.state.status?.text == "Deleted zone Library and its \(count) records; now in _defaultZone.")
        #expect(harness.state.jobs.isEmpty)
    }

    @Test func deletingAnotherZoneKeepsTheCurrentOne() throws {
        let harness = try Harness()
        try harness.selectZone(named: "People")
        harness.press(.char("d"), .char("y"))
        #expect(try !zoneNames(harness).contains("People"))
        #expect(harness.state.zone.zoneName == "Travel")
        #expect(harness.state.status?.text.hasPrefix("Deleted zone People and its") == true)
    }

    @Test func refusesToDeleteTheDefaultZone() throws {
        let harness = try Harness()
        harness.press(.char("4"), .char("g"))
        #expect(harness.state.zones[harness.state.zonesTab.list.selected].zoneID == .default)
        harness.press(.char("d"))
        #expect(harness.state.topModal == nil)
        #expect(harness.state.status?.kind == .error)
        #expect(harness.state.status?.text == "_defaultZone cannot be deleted (CloudKit's rule); delete its records instead.")
        #expect(try zoneNames(harness).contains("_defaultZone"))
    }

    @Test func refusesToMakeZonesOutsideThePrivateDatabase() throws {
        let harness = try Harness()
        harness.press(.char(":"))
        harness.type("db public")
        harness.press(.enter)
        harness.press(.char("4"), .char("n"))
        #expect(harness.state.topModal == nil)
        #expect(harness.state.status?.kind == .error)
        #expect(harness.state.status?.text.contains("only be made in the private database; this is the public database") == true)
        #expect(try harness.store.database(.public).allRecordZones().map(\.zoneID) == [.default])
    }

    @Test func helpListsTheZoneKeys() throws {
        let harness = try Harness()
        harness.press(.char("4"), .char("?"))
        let screen = harness.screen(width: 100, height: 60)
        #expect(screen.contains("new zone (private database)"))
        #expect(screen.contains("delete the zone and its records (asks first)"))
    }
}
