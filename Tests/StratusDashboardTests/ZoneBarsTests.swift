import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard

/// The Zones tab's bars: the selected zone's records per type, counted by the engine.
@Suite struct ZoneBarsTests {
    @Test func theSelectedZonesTypesShowAsBars() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30), engineQueries: true)
        harness.press(.char("4"))
        let selected = try #require(harness.state.zones.indices.contains(harness.state.zonesList.selected) ? harness.state.zones[harness.state.zonesList.selected] : nil)
        let counts = try #require(harness.state.zoneTypeCounts[selected.zoneID], "counted when the tab opens")
        #expect(counts == (try harness.database.recordCountsByType(inZoneWith: selected.zoneID)))
        try harness.selectZone(named: "Travel")
        let travel = try #require(harness.state.zoneTypeCounts[ZoneID(zoneName: "Travel")], "and when the selection moves")
        let busiest = try #require(travel.max { $0.value < $1.value })
        let screen = harness.screen()
        #expect(screen.contains("Records by type in Travel"))
        #expect(screen.contains("\(busiest.key) "))
        #expect(screen.contains("█"))
        // Too small a window keeps the whole body for the list.
        #expect(Layout.zoneBarsHeight(Size(width: 80, height: 14)) == 0)
    }
}

/// A numeric list in the inspector is drawn as a sparkline.
@Suite struct SparklineTests {
    @Test func sparklinesScaleBetweenTheLeastAndTheGreatest() {
        #expect(Sparkline.line([1, 2, 3, 4, 5, 6, 7, 8], width: 20) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.line([5, 5, 5], width: 10) == "▅▅▅", "a flat list sits in the middle")
        #expect(Sparkline.line([1], width: 10).isEmpty)
        #expect(Sparkline.line([0, 10, .nan, 0], width: 10) == "▁█▁")
        #expect(Sparkline.line((0..<100).map(Double.init), width: 10).count == 10, "more values than cells are averaged")
    }

    @Test func theInspectorDrawsANumericListsSparkline() throws {
        var record = Record(recordType: "Trip", recordID: RecordID(recordName: "t1", zoneID: ZoneID(zoneName: "Travel")))
        record["temperatures"] = .list(.int64, [.int64(3), .int64(9), .int64(14), .int64(21), .int64(12)])
        record["title"] = .string("京都 🍁")
        let harness = try Harness(records: [record], size: Size(width: 100, height: 30))
        harness.press(.enter)
        // Select the list field: system fields come first, then fields by name.
        guard case .inspector(let inspector)? = harness.state.topModal else {
            Issue.record("no inspector")
            return
        }
        let rows = InspectorRows.rows(inspector.record, schema: harness.state.schema(named: "Trip"))
        let index = try #require(rows.firstIndex { $0.name == "temperatures" })
        harness.press(.char("g"))
        for _ in 0..<index { harness.press(.down) }
        let screen = harness.screen()
        #expect(screen.contains(Sparkline.line([3, 9, 14, 21, 12], width: 100)))
        #expect(screen.contains("3 … 21"))
    }
}

/// The Changes tab's order option: each page as logged, or parents first.
@Suite struct PlaybackOrderTabTests {
    @Test func parentsFirstPutsAParentBeforeTheRecordsUnderIt() throws {
        let harness = try Harness(records: Fixtures.trips(3)) { store in
            let family = ZoneID(zoneName: "Family")
            let db = store.database(.private)
            try db.modifyRecordZones(saving: [family])
            var child = Record(recordType: "Person", recordID: RecordID(recordName: "child", zoneID: family), fields: ["name": .string("子 👶")])
            child.parent = Reference(recordName: "parent")
            try db.save(child)
            try db.save(Record(recordType: "Person", recordID: RecordID(recordName: "parent", zoneID: family), fields: ["name": .string("親")]))
        }
        harness.press(.char(":"))
        harness.type("zone Family")
        harness.press(.enter)
        harness.press(.char("3"), .char("r"))
        #expect(harness.state.changes.events.map(\.recordName) == ["child", "parent"], "as logged: the child was saved first")
        harness.press(.char("o"))
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("no order picker")
            return
        }
        #expect(picker.items.map(\.label) == ["as logged", "parents first", "children first", "shuffled"])
        harness.press(.down, .enter, .char("r"))
        #expect(harness.state.changes.order == .parentsFirst)
        #expect(harness.state.changes.events.map(\.recordName) == ["parent", "child"])
        #expect(harness.screen().contains("Order parents first"))
    }
}
