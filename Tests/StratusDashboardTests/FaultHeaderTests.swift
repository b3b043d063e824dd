import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// The header says when the fault plan is armed, on every tab: for whom, and whether this
/// dashboard's own reads meet it.
@Suite struct FaultHeaderTests {
    private func header(_ harness: Harness) -> String {
        String(harness.screen().split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test func theHeaderWarnsOfArmedFaults() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30))
        #expect(!header(harness).contains("⚠"))
        _ = try harness.store.addFault(Fault(kind: .zoneBusy, zoneName: "Travel"))
        harness.pollFaultPlan()
        #expect(header(harness).contains("⚠ 1 fault armed for server, cli"), "\(header(harness))")
        #expect(header(harness).contains("development"))

        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, clients: [.dashboard]))
        harness.pollFaultPlan()
        #expect(header(harness).contains("⚠ 2 faults armed, 1 for this dashboard"), "\(header(harness))")
        // On another tab too, and short at 80 columns.
        harness.press(.char("4"))
        #expect(header(harness).contains("⚠ 2 faults"))
        #expect(harness.screen(width: 80, height: 24).split(separator: "\n").first?.contains("⚠ 2 faults") == true)

        _ = try harness.store.clearFaults()
        harness.pollFaultPlan()
        #expect(!header(harness).contains("⚠"))
    }

    /// A fault that fired its only time is no longer armed.
    @Test func aSpentFaultIsNotCounted() throws {
        let harness = try Harness(records: Fixtures.trips(5), size: Size(width: 100, height: 30))
        _ = try harness.store.addFault(Fault(kind: .zoneBusy, zoneName: "Travel", operation: .query, trigger: .once, clients: [.dashboard]))
        harness.pollFaultPlan()
        #expect(header(harness).contains("⚠ 1 fault armed for this dashboard"))
        harness.press(.char("r"))
        #expect(harness.state.status?.text.contains("zoneBusy") == true)
        harness.pollFaultPlan()
        #expect(!header(harness).contains("⚠"))
    }
}
