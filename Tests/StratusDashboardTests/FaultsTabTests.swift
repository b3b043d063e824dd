import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// The Faults tab on the real engine: a fault added with keys (its options checked as typed),
/// calls meeting it, the counts and firings following, removal; and compaction from the
/// Changes tab.
@Suite struct FaultsTabTests {
    private func typedOptions(_ harness: Harness) -> TextInputState? {
        if case .textInput(let input)? = harness.state.topModal { return input }
        return nil
    }

    @Test func addAFaultWithKeysWatchItFireAndRemoveIt() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 120, height: 30))
        harness.press(.char("9"))
        #expect(harness.screen().contains("No faults: a adds one"))
        harness.press(.char("a"))
        guard case .picker(let kinds)? = harness.state.topModal else {
            Issue.record("no kind picker")
            return
        }
        #expect(kinds.items.map(\.label) == FaultKind.allCases.map(\.name))
        harness.press(.down, .enter) // zoneBusy
        #expect(typedOptions(harness)?.hint.contains("--retry-after S") == true)
        // Checked as typed, in the command line's words.
        harness.type("--zone 旅行 --every 0")
        #expect(typedOptions(harness)?.error?.contains("every 1 or more") == true)
        #expect(harness.screen().contains("every 1 or more"))
        harness.press(.enter)
        #expect(typedOptions(harness) != nil, "a plan that cannot happen is not taken")
        harness.press(.ctrl("u"))
        harness.type("--zone Travel --every 2 --retry-after 3")
        #expect(typedOptions(harness)?.error == nil)
        harness.press(.enter)
        #expect(harness.state.status?.text.contains("Added fault #1: zoneBusy, zone Travel, every 2 calls, retry after 3 s") == true)
        var screen = harness.screen()
        #expect(screen.contains("1 armed, 0 spent"))
        #expect(screen.contains("#1  armed"))
        #expect(screen.contains("0/0"))

        // Two queries in Travel: the second meets the fault.
        let travel = ZoneID(zoneName: "Travel")
        _ = try harness.database.records(matching: Query(recordType: "Trip"), inZoneWith: travel)
        #expect(throws: CloudKitError.self) { try harness.database.records(matching: Query(recordType: "Trip"), inZoneWith: travel) }
        harness.pollFaults()
        screen = harness.screen()
        #expect(screen.contains("1/2"))
        #expect(screen.contains("zoneBusy (23): Zone 'Travel' is busy: try again after 3 s"))
        #expect(harness.state.faults.events.count == 1)

        harness.press(.char("y"))
        #expect(harness.copied.withLock { $0 }.last?.hasPrefix("#1 zoneBusy") == true)
        harness.press(.char("d"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation")
            return
        }
        #expect(confirm.title == "Remove fault #1")
        harness.press(.char("y"))
        #expect(try harness.store.faults().isEmpty)
        #expect(harness.state.status?.text == "Removed fault #1.")
        #expect(harness.screen().contains("No faults"))
        _ = try harness.database.records(matching: Query(recordType: "Trip"), inZoneWith: travel)
    }

    @Test func clearingThePlanAsksFirst() throws {
        let harness = try Harness(records: Fixtures.trips(2), size: Size(width: 80, height: 24))
        try harness.store.addFault(Fault(kind: .serverRecordChanged, recordNames: ["trip-1"], otherDeviceFields: #"{"title": {"value": "東京"}}"#))
        try harness.store.addFault(Fault(kind: .limitExceeded, itemLimit: 5))
        harness.press(.char("9"))
        let screen = harness.screen()
        #expect(screen.contains("serverRecordChanged"))
        #expect(screen.contains("over 5"))
        harness.press(.char("x"))
        harness.press(.char("n"))
        #expect(try harness.store.faults().count == 2)
        harness.press(.char("x"), .char("y"))
        #expect(try harness.store.faults().isEmpty)
        #expect(harness.state.status?.text.contains("Removed 2 faults") == true)
    }

    @Test func compactingFromTheChangesTab() throws {
        let harness = try Harness(records: Fixtures.trips(4), size: Size(width: 120, height: 30))
        let travel = ZoneID(zoneName: "Travel")
        let early = try harness.database.currentToken(for: travel)
        let victim = try #require(try harness.database.recordZoneChanges(inZoneWith: travel, resultsLimit: 1).changes.first?.recordID)
        try harness.database.deleteRecord(withID: victim)
        harness.press(.char("3"), .char("r"))
        harness.runPending()
        #expect(!harness.screen().contains("history from"), "never compacted")
        #expect(harness.screen().contains("activity "), "the zone's changes over time")
        harness.press(.char("K"))
        guard case .picker(let points)? = harness.state.topModal else {
            Issue.record("no compaction picker")
            return
        }
        #expect(points.items.first?.label == "Before the token of the last playback")
        #expect(points.items.last?.label == "Keep none")
        for _ in 1..<points.items.count { harness.press(.down) }
        harness.press(.enter)
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation")
            return
        }
        #expect(confirm.message.contains("changeTokenExpired (21)"))
        harness.press(.char("y"))
        harness.runPending()
        #expect(harness.state.status?.text.contains("Compacted Travel before change") == true)
        #expect(harness.state.status?.text.contains("dropped ") == true, "\(harness.state.status?.text ?? "")")
        #expect(harness.screen().contains("history from"))
        #expect(throws: CloudKitError.self) { try harness.database.recordZoneChanges(inZoneWith: travel, since: early) }
    }

    @Test func theDefaultZoneHasNoHistoryToCompact() throws {
        let harness = try Harness(records: Fixtures.trips(1), size: Size(width: 80, height: 24))
        try harness.selectZone(named: "_defaultZone")
        harness.press(.enter, .char("3"), .char("K"))
        #expect(harness.state.modals.isEmpty)
        #expect(harness.state.status?.text.contains("no change history to compact") == true)
    }
}
