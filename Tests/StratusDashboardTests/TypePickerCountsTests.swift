import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// The record type picker (`t`) shows how many records of each type the current zone holds,
/// counted each time it opens, so a count is never older than the user's last edit.
@Suite struct TypePickerCountsTests {
    @Test func thePickerCountsEachTypeInTheCurrentZone() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            try DefaultRecordTypeTests.save(store, zone: "Counted", [("Alpha", 2), ("Zeta", 5), ("Middle", 1)])
            // Counted in this zone only: Middle's records elsewhere do not show.
            try DefaultRecordTypeTests.save(store, zone: "Elsewhere", [("Middle", 9), ("Other", 4)])
        }
        harness.press(.char("t"))
        let picker = try #require(Self.picker(harness))
        #expect(picker.items.map(\.label) == ["Alpha", "Middle", "Other", "Zeta"])
        #expect(picker.items.map(\.detail) == ["2 records · 1 field", "1 record · 1 field", "0 records · 1 field", "5 records · 1 field"])
        #expect(picker.selectedItem?.label == "Zeta", "the cursor stays on the type in use")
        #expect(harness.screen().contains("5 records · 1 field"))
    }

    @Test func theCountsAreTakenAgainAfterAnEdit() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            try DefaultRecordTypeTests.save(store, zone: "Counted", [("Alpha", 2), ("Zeta", 5)])
        }
        harness.press(.char("t"))
        #expect(Self.picker(harness)?.items.first?.detail == "2 records · 1 field")
        harness.press(.escape)
        var extra = Record(recordType: "Alpha", recordID: RecordID(recordName: "alpha-new", zoneID: ZoneID(zoneName: "Counted")))
        extra["label"] = .string("new")
        _ = try harness.store.database(.private).modifyRecords(saving: [extra]).savedRecords()
        harness.press(.char("t"))
        #expect(Self.picker(harness)?.items.first?.detail == "3 records · 1 field")
    }

    /// Until the counts arrive the picker says it is counting, then they replace it in place.
    @Test func thePickerSaysItIsCountingUntilTheCountsArrive() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            try DefaultRecordTypeTests.save(store, zone: "Counted", [("Alpha", 2), ("Zeta", 5)])
        }
        harness.autoRun = false
        harness.press(.char("t"))
        #expect(Self.picker(harness)?.items.map(\.detail) == ["counting… · 1 field", "counting… · 1 field"])
        harness.press(.char("k"))
        harness.runPending()
        let picker = try #require(Self.picker(harness))
        #expect(picker.items.map(\.detail) == ["2 records · 1 field", "5 records · 1 field"])
        #expect(picker.selectedItem?.label == "Alpha", "the cursor the user moved stays")
    }

    static func picker(_ harness: Harness) -> PickerState? {
        guard case .picker(let picker)? = harness.state.topModal, case .recordType? = picker.purpose as? QueryPick else { return nil }
        return picker
    }
}
