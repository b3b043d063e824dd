import Testing
@testable import StratusServer

/// The request log's line for `records/modify`, counted from what each operation came to.
@Suite struct ModifySummaryTests {
    @Test func savedDeletedAndFailedAreListedInThatOrder() {
        var summary = ModifySummary()
        summary.add(.deleted, recordName: "c")
        summary.add(.saved, recordName: "a")
        summary.add(.failed, recordName: "x")
        summary.add(.saved, recordName: "b")
        #expect(summary.text == "saved a, b · deleted c · 1 failed")
    }

    @Test func longListsNameFiveAndCountTheRest() {
        var summary = ModifySummary()
        for name in ["a", "b", "c", "d", "e", "f", "g"] { summary.add(.saved, recordName: name) }
        #expect(summary.text == "saved a, b, c, d, e and 2 more")
        #expect(ModifySummary().text == nil)
    }
}
