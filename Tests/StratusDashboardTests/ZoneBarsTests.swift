import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// The Zones tab's bars: the selected zone's records per type, counted by the engine.
@Suite struct ZoneBarsTests {
    @Test func theSelectedZonesTypesShowAsBars() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30))
        harness.press(.char("4"))
        let selected = try #require(harness.state.zones.indices.contains(harness.state.zonesTab.list.selected) ? harness.state.zones[harness.state.zonesTab.list.selected] : nil)
        let counts = try #require(harness.state.zonesTab.typeCounts[selected.zoneID], "counted when the tab opens")
        #expect(counts == (try harness.database.recordCountsByType(inZoneWith: selected.zoneID)))
        try harness.selectZone(named: "Travel")
        let travel = try #require(harness.state.zonesTab.typeCounts[ZoneID(zoneName: "Travel")], "and when the selection moves")
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
        let harness = try inspecting(field: "temperatures", .list(.int64, [.int64(3), .int64(9), .int64(14), .int64(21), .int64(12)]))
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

/// A location in the inspector is drawn on a world map.
@Suite struct WorldMapTests {
    /// The character of the map at a place, as drawn without a marker there.
    func dots(at location: Location, height: Int) throws -> Character {
        // Mark the other side of the world, so the place's own cell is drawn as land or sea.
        let elsewhere = Location(latitude: -location.latitude, longitude: location.longitude > 0 ? location.longitude - 180 : location.longitude + 180)
        let map = try #require(WorldMap(elsewhere, height: height))
        let column = min(height * 4 - 1, Int((location.longitude + 180) / 360 * Double(height * 4)))
        let row = min(height - 1, Int((90 - location.latitude) / 180 * Double(height)))
        return Array(map.lines[row])[column]
    }

    @Test func landIsDottedAndTheSeaIsBlank() throws {
        #expect(try dots(at: Location(latitude: 12, longitude: 16), height: 8) == "⣿", "the middle of Africa is all land")
        #expect(try dots(at: Location(latitude: -58, longitude: 135), height: 8) == "⠀", "the Southern Ocean is none")
        #expect(try dots(at: Location(latitude: 10, longitude: -150), height: 8) == "⠀", "nor is the middle of the Pacific")
        #expect(try dots(at: Location(latitude: 60, longitude: 100), height: 8) == "⣿", "Siberia is")
    }

    @Test func theMarkerSitsOnThePlace() throws {
        let tokyo = try #require(WorldMap(Location(latitude: 35.68, longitude: 139.76), height: 8))
        #expect(tokyo.lines.count == 8)
        #expect(tokyo.lines.allSatisfy { $0.count == 32 })
        #expect(tokyo.markerColumn == 28 && tokyo.markerRow == 2)
        #expect(Array(tokyo.lines[2])[28] == WorldMap.marker)
        let south = try #require(WorldMap(Location(latitude: -90, longitude: 180), height: 4))
        #expect(south.markerColumn == 15 && south.markerRow == 3, "the edges stay on the map")
        #expect(WorldMap(Location(latitude: 95, longitude: 0), height: 8) == nil)
        #expect(WorldMap(Location(latitude: 0, longitude: 0), height: 1) == nil)
        #expect(WorldMap.caption(Location(latitude: -33.868, longitude: -151.2)) == "33.87° S, 151.2° W")
    }

    @Test func theInspectorDrawsTheMapForASelectedLocation() throws {
        let unselected = try inspecting(field: "destination", .location(Location(latitude: 35.68, longitude: 139.76)), select: false)
        #expect(!unselected.screen().contains("35.68° N, 139.76° E"), "no map until the location is selected")
        let harness = try inspecting(field: "destination", .location(Location(latitude: 35.68, longitude: 139.76)))
        let screen = harness.screen()
        #expect(screen.contains("35.68° N, 139.76° E"))
        #expect(screen.contains(String(WorldMap.marker)))
        #expect(screen.contains("destination  "), "the selected row stays in view above the map")
    }
}

/// The inspector open on a trip with `value` in `field` (and CJK and emoji in its title), that
/// field selected unless `select` is false (system fields come first, then fields by name).
func inspecting(field: String, _ value: FieldValue, select: Bool = true) throws -> Harness {
    var record = Record(recordType: "Trip", recordID: RecordID(recordName: "t1", zoneID: ZoneID(zoneName: "Travel")))
    record[field] = value
    record["title"] = .string("京都 🍁")
    let harness = try Harness(records: [record], size: Size(width: 100, height: 30))
    harness.press(.enter)
    guard case .inspector(let inspector)? = harness.state.topModal else { throw CloudKitError(.internalError, "no inspector") }
    let rows = InspectorRows.rows(inspector.record, schema: harness.state.schema(named: "Trip"))
    let index = try #require(rows.firstIndex { $0.name == field })
    harness.press(.char("g"))
    if select { for _ in 0..<index { harness.press(.down) } }
    return harness
}
