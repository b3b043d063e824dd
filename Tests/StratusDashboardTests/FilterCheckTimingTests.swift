import Foundation
@testable import StratusDashboard
import StratusModel
import StratusTerminal
import Testing

/// The filter editor checks off the UI thread: Enter pressed before the check arrives applies
/// the filter when it passes, and typing after Enter takes that back.
@Suite struct FilterCheckTimingTests {
    @Test func theCheckIsNotRunOnTheKeystroke() {
        #expect(!Effect.checkFilter(generation: 1, filter: "nights > 3", arguments: [], recordType: "Trip").isImmediate)
    }

    @Test func enterBeforeTheCheckAppliesTheFilterWhenTheCheckPasses() throws {
        let harness = try Harness(records: Fixtures.trips(12))
        harness.press(.char("f"), .tab)
        harness.autoRun = false
        harness.type("nights > 3")
        harness.press(.enter)
        #expect(harness.state.query.filter != "nights > 3", "nothing applies before the check")
        #expect(harness.state.status?.text.contains("Checking the filter") == true)
        harness.autoRun = true
        harness.runPending()
        #expect(harness.state.query.filter == "nights > 3")
        #expect(harness.state.topModal == nil)
        #expect(harness.state.status == nil, "the wait's message ends with the apply")
        #expect(harness.state.query.records.count == (try harness.matchingCount("nights > 3")))
    }

    @Test func aRefusedFilterIsNotAppliedAndSaysWhy() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("f"), .tab)
        harness.autoRun = false
        harness.type("nights > 'many'")
        harness.press(.enter)
        harness.autoRun = true
        harness.runPending()
        #expect(harness.state.query.filter != "nights > 'many'")
        #expect(harness.state.status?.text.hasPrefix("Not applied") == true)
        #expect(harness.state.topModal != nil, "the editor stays open to fix the filter")
    }

    @Test func typingAfterEnterTakesThePendingApplyBack() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("f"), .tab)
        harness.autoRun = false
        harness.type("nights > 3")
        harness.press(.enter)
        harness.type("0")
        harness.autoRun = true
        harness.runPending()
        #expect(harness.state.query.filter != "nights > 30", "only Enter applies a filter")
        #expect(harness.state.topModal != nil)
    }
}
