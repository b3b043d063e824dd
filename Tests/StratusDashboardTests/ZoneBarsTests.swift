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
