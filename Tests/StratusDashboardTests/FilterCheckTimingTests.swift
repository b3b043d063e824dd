import Foundation
@testable import StratusDashboard
import StratusModel
import StratusTerminal
import Testing

/// The filter editor checks off the UI thread: Enter pressed before the check arrives applies
/// the filter when it passes, and typing after Enter takes that back.
@Suite struct FilterCheckTimingTests {
    @Test func theCheckIsNotRunOnTheKeystroke() {
        #expect(!Effect.query(.checkFilter(generation: 1, filter: "nights > 3", arguments: [], recordType: "Trip")).isImmediate)
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
        // Fixed and applied: the refusal's message goes with it.
        harness.press(.ctrl("u"))
        harness.type("nights > 3")
        harness.press(.enter)
        #expect(harness.state.query.filter == "nights > 3")
        #expect(harness.state.status == nil, "a message belongs to the action that made it")
    }

    @Test func aCheckOfTextNoLongerInTheEditorIsDropped() throws {
        let harness = try Harness(records: Fixtures.trips(5))
        harness.press(.char("f"), .tab)
        harness.autoRun = false
        harness.type("nights > 'many'")
        let late = harness.pending
        harness.pending = []
        harness.press(.ctrl("u"))
        harness.type("nights > 3")
        harness.autoRun = true
        harness.runPending()
        guard case .filterEditor(let checked)? = harness.state.topModal else {
            Issue.record("no filter editor")
            return
        }
        #expect(checked.check?.isValid == true)
        // The checks of the refused text arrive after the editor moved on: they change nothing.
        for effect in late { harness.run(effect) }
        guard case .filterEditor(let editor)? = harness.state.topModal else {
            Issue.record("no filter editor")
            return
        }
        #expect(late.contains { if case .query(.checkFilter) = $0 { return true }; return false })
        #expect(editor.text.text == "nights > 3")
        #expect(editor.check == checked.check, "the check shown is still the one of the text in the editor")
        harness.press(.enter)
        #expect(harness.state.query.filter == "nights > 3")
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

/// Counts on screen read as numbers with their nouns: grouped digits on both sides of a slash,
/// one event or page, a question that says what it deletes.
@Suite struct CountWordingTests {
    @Test func countsCarryTheirNounInTheRightNumber() {
        #expect(ViewKit.count(1, "event") == "1 event")
        #expect(ViewKit.count(2_400, "event") == "2,400 events")
        #expect(ViewKit.count(1, "match", plural: "matches") == "1 match")
        #expect(FaultsTab.compactionQuestion(zone: "Library", before: nil, keep: 0) == "Drop all of the change history of Library?")
        #expect(FaultsTab.compactionQuestion(zone: "Library", before: nil, keep: 1) == "Drop the change history of Library but its newest 1 change?")
        #expect(FaultsTab.compactionQuestion(zone: "Library", before: "t", keep: nil) == "Drop the change history of Library before that token?")
    }

    @Test func aBulkDeleteWithoutAFilterAsksAboutAllTheRecords() throws {
        let harness = try Harness(records: Fixtures.trips(1_234))
        harness.press(.char("r"))
        harness.runMapping()
        harness.press(.ctrl("x"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation")
            return
        }
        #expect(confirm.title == "Delete 1,234 records")
        #expect(confirm.message.hasPrefix("Delete all 1,234 Trip records in Travel?"), "\(confirm.message)")
    }

    @Test func aRecordDeleteDoesNotSayItCannotBeUndone() throws {
        let harness = try Harness(records: Fixtures.trips(3))
        harness.press(.char("d"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("no confirmation")
            return
        }
        #expect(!confirm.message.contains("cannot be undone"))
        #expect(confirm.message.contains("U undoes it"))
    }
}

/// An export's progress replaces its count on the status line and in the job's label.
@Suite struct ExportProgressTests {
    @Test func progressUpdatesInPlace() throws {
        let harness = try Harness(records: Fixtures.trips(3))
        let job = harness.state.startJob(.export, "export to /tmp/out: a.jsonl")
        for written in [500, 1_000, 1_500] {
            harness.send(.export(.progress(job: job, written: written, total: nil)))
        }
        let label = try #require(harness.state.job(job)?.label)
        #expect(label == "export to /tmp/out: a.jsonl: \(1_500.formatted()) records", "\(label)")
        #expect(harness.state.status?.text == "Exporting to /tmp/out: a.jsonl: \(1_500.formatted()) records written… (Esc cancels)")
        harness.send(.export(.progress(job: job, written: 2_000, total: 3_000)))
        #expect(harness.state.job(job)?.label == "export to /tmp/out: a.jsonl: \(2_000.formatted()) of \(3_000.formatted()) records")
    }
}
