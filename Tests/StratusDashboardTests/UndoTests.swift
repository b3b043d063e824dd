import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard
import StratusCloud

/// `U` and `R` on the real engine: a save, a delete and a bulk delete undone and redone; an
/// undo that would overwrite a later change refuses.
@Suite struct UndoTests {
    private let travel = ZoneID(zoneName: "Travel")

    @Test func aSaveUndoneAndRedone() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("U"))
        #expect(harness.state.status?.text == "Nothing to undo: no save or delete in this session yet.")
        let name = try #require(try harness.database.recordZoneChanges(inZoneWith: travel, resultsLimit: 1).changes.first?.recordID.recordName)
        let original = try harness.database.record(for: RecordID(recordName: name, zoneID: travel))
        var edited = original
        edited["title"] = .string("編集 ✏️")
        edited["extra"] = .int64(7)
        harness.run(.record(.save(job: 0, record: edited, policy: .ifServerRecordUnchanged, scope: .private, isNew: false)))
        #expect(try harness.database.record(for: original.recordID)["title"] == .string("編集 ✏️"))

        harness.press(.char("U"))
        #expect(harness.state.status?.text == "Undid the save of \(name): its fields are as before.")
        let undone = try harness.database.record(for: original.recordID)
        #expect(undone.fields == original.fields, "the title back, the new field gone")
        harness.press(.char("R"))
        #expect(harness.state.status?.text == "Redid the save of \(name).")
        #expect(try harness.database.record(for: original.recordID)["extra"] == .int64(7))
        harness.press(.char("R"))
        #expect(harness.state.status?.text == "Nothing to redo.")

        // Someone else changes it: undo refuses rather than overwrite that, and keeps the entry.
        var theirs = try harness.database.record(for: original.recordID)
        theirs["title"] = .string("theirs")
        try harness.database.save(theirs)
        harness.press(.char("U"))
        #expect(harness.state.status?.text.contains("changed since this dashboard saved it") == true)
        #expect(try harness.database.record(for: original.recordID)["title"] == .string("theirs"))
        #expect(harness.state.undo.done.count == 1)
    }

    @Test func undoPutsBackWhatADeleteTookThroughDeleteSelf() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        let root = try #require(harness.state.query.record(at: 0))
        // A note on the trip, and a comment on the note: deleting the trip takes both.
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "note-on-trip", zoneID: travel))
        note["body"] = .string("忘れ物 🧳")
        note["trip"] = .reference(Reference(recordName: root.recordName, action: .deleteSelf))
        var comment = Record(recordType: "Note", recordID: RecordID(recordName: "comment-on-note", zoneID: travel))
        comment["body"] = .string("found it")
        comment["trip"] = .reference(Reference(recordName: "note-on-trip", action: .deleteSelf))
        _ = try harness.database.modifyRecords(saving: [note, comment]).savedRecords()
        harness.press(.char("d"), .char("y"))
        #expect(harness.state.status?.text.contains("and 2 record(s) pointing at it with DELETE_SELF") == true)
        #expect(throws: CloudKitError.self) { try harness.database.record(for: comment.recordID) }

        harness.press(.char("U"))
        #expect(harness.state.status?.text == "Undid the delete: put back 3 records.")
        #expect(try harness.database.record(for: root.recordID).fields == root.fields)
        #expect(try harness.database.record(for: note.recordID)["body"] == .string("忘れ物 🧳"))
        #expect(try harness.database.record(for: comment.recordID)["trip"] == .reference(Reference(recordName: "note-on-trip", action: .deleteSelf)))
        // Redo takes them again, through the cascade.
        harness.press(.char("R"))
        #expect(throws: CloudKitError.self) { try harness.database.record(for: comment.recordID) }
    }

    @Test func aDeleteAndABulkDeleteUndone() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        let all = try harness.matchingCount()
        let victim = try #require(harness.state.query.record(at: 0))
        harness.press(.char("d"), .char("y"))
        #expect(try harness.matchingCount() == all - 1)
        harness.press(.char("U"))
        #expect(harness.state.status?.text == "Undid the delete: put back 1 record.")
        let back = try harness.database.record(for: victim.recordID)
        #expect(back.fields == victim.fields)
        harness.press(.char("R"))
        #expect(try harness.matchingCount() == all - 1)
        harness.press(.char("U"))
        #expect(try harness.matchingCount() == all)

        // The demo's trips have notes pointing at them with DELETE_SELF: they go, and come back, too.
        let everything = try harness.database.recordCountsByType(inZoneWith: travel)
        harness.press(.ctrl("x"), .char("y"))
        #expect(try harness.matchingCount() == 0)
        let left = try harness.database.recordCountsByType(inZoneWith: travel)
        let taken = everything.values.reduce(0, +) - left.values.reduce(0, +)
        #expect(taken > all)
        harness.press(.char("U"))
        #expect(harness.state.status?.text == "Undid the delete: put back \(taken.formatted()) records.")
        #expect(try harness.matchingCount() == all)
        #expect(try harness.database.recordCountsByType(inZoneWith: travel) == everything)
        #expect(harness.state.query.loadedCount > 0, "the query shows them again")
    }
}
