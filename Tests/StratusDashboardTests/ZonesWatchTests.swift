import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// The Zones tab keeps its counts and tokens true while another process writes, on its own
/// and quietly (no job on the status line, no bars gone blank), and opens on the zone in use.
@Suite struct ZonesWatchTests {
    @Test func theTabOpensOnTheZoneInUseAndFollowsAnotherWriter() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30))
        try harness.database.modifyRecordZones(saving: [ZoneID(zoneName: "Archive")])
        harness.autoRun = false
        harness.press(.char("4"))
        #expect(!harness.state.jobs.contains { $0.kind == .zones }, "reading the zones is no job with a spinner")
        harness.runPending()
        harness.autoRun = true
        let travel = ZoneID(zoneName: "Travel")
        #expect(harness.state.zones.contains { $0.zoneID.zoneName == "Archive" }, "the zones were read again on entering")
        #expect(harness.state.zones[harness.state.zonesTab.list.selected].zoneID == travel, "the cursor starts on the zone in use")
        let before = try #require(harness.state.zones.first { $0.zoneID == travel })
        let barsBefore = try #require(harness.state.zonesTab.typeCounts[travel])

        // Another process writes a Trip and a Note into Travel.
        let other = try Store(path: harness.state.storePath)
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "from-elsewhere", zoneID: travel))
        note["text"] = .string("written by another process 📝")
        _ = try other.database(.private).modifyRecords(saving: [note]).savedRecords()
        let status = harness.state.status
        harness.pollZones()

        let after = try #require(harness.state.zones.first { $0.zoneID == travel })
        #expect(after.recordCount == before.recordCount + 1)
        #expect(after.currentToken != before.currentToken)
        #expect(after.currentToken == (try harness.database.currentToken(for: travel)))
        #expect(harness.state.zonesTab.typeCounts[travel]?["Note"] == 1, "the bars are counted again")
        #expect(harness.state.zonesTab.typeCounts[travel]?.values.reduce(0, +) == barsBefore.values.reduce(0, +) + 1)
        #expect(harness.state.zones[harness.state.zonesTab.list.selected].zoneID == travel, "the cursor stays on its zone")
        #expect(harness.state.status == status, "a background read says nothing")
        #expect(harness.screen().contains(after.currentToken.prefix(8)))
        // Another tab: the watch stops.
        harness.press(.char("1"))
        #expect(harness.state.zonesTab.watchJob == nil)
    }

    /// While a zone is counted again, its old bars stay on screen (no "Counting…" flash).
    @Test func oldBarsStayWhileCountingAgain() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30))
        harness.press(.char("4"))
        let travel = ZoneID(zoneName: "Travel")
        #expect(harness.state.zonesTab.typeCounts[travel] != nil)
        _ = try harness.database.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: travel))]).savedRecords()
        harness.autoRun = false
        harness.pollZones()
        #expect(harness.state.zonesTab.typeCountsPending.contains(travel))
        #expect(!harness.screen().contains("Counting…"))
        #expect(harness.screen().contains("Records by type in Travel"))
    }
}
