import Foundation
@testable import StratusDashboard
import StratusCloud
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// After the dashboard's own edits (a new record, a delete, an undo) the Query tab's count, its
/// rows and its selection are the store's, without `r`.
@Suite struct EditsKeepResultsTrueTests {
    /// The demo's notes in the default zone, filtered to the pinned ones.
    static func pinnedNotes() throws -> Harness {
        let harness = try Harness(recordType: "Note", demo: true)
        harness.press(.char(":"))
        harness.type("zone _defaultZone")
        harness.press(.enter)
        harness.state.query.filter = "pinned == 1"
        harness.press(.char("r"))
        harness.runMapping()
        return harness
    }

    func matches(_ harness: Harness) throws -> Int {
        try harness.matchingCount("pinned == 1", type: "Note", zone: ZoneID.defaultZoneName)
    }

    @Test func aNewRecordTheFilterDoesNotMatchIsNotShownOrCounted() throws {
        let harness = try Self.pinnedNotes()
        let before = try matches(harness)
        #expect(harness.state.query.matchCount == before)
        harness.press(.char("n"))
        harness.type("note-unpinned")
        harness.press(.down)
        harness.type("0")
        harness.press(.down)
        harness.type("not pinned 📌")
        harness.press(.ctrl("s"))
        #expect((try? harness.database.record(for: RecordID(recordName: "note-unpinned"))) != nil)
        harness.runMapping()
        #expect(!harness.state.query.records.contains { $0.recordName == "note-unpinned" }, "the filter does not match it")
        #expect(harness.state.query.matchCount == before)
        #expect(harness.state.query.loadedCount <= before, "no row beyond what the filter matches")
    }

    @Test func aNewRecordTheFilterMatchesIsCountedAndSelected() throws {
        let harness = try Self.pinnedNotes()
        let before = try matches(harness)
        harness.press(.char("n"))
        harness.type("note-pinned")
        harness.press(.down)
        harness.type("1")
        harness.press(.down)
        harness.type("pinned 📌")
        harness.press(.ctrl("s"))
        harness.runMapping()
        #expect(harness.state.query.matchCount == before + 1)
        let selected = harness.state.query.list.selected - harness.state.query.windowStart
        #expect(harness.state.query.records.indices.contains(selected))
        #expect(harness.state.query.records[selected].recordName == "note-pinned")
    }

    @Test func aDeleteLowersTheCountAndUndoSelectsWhatCameBack() throws {
        let harness = try Self.pinnedNotes()
        let before = try matches(harness)
        #expect(before >= 3)
        harness.press(.down, .down)
        let doomed = harness.state.query.records[harness.state.query.list.selected - harness.state.query.windowStart].recordID
        harness.press(.char("d"), .char("y"))
        #expect((try? harness.database.record(for: doomed)) == nil)
        harness.runMapping()
        #expect(harness.state.query.matchCount == before - 1)
        #expect(!harness.state.query.records.contains { $0.recordID == doomed })
        harness.press(.char("U"))
        harness.runMapping()
        #expect(harness.state.query.matchCount == before)
        let selected = harness.state.query.list.selected - harness.state.query.windowStart
        #expect(harness.state.query.records[selected].recordID == doomed, "the cursor is on the record put back")
    }
}
