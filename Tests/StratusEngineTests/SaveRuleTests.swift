import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

/// The engine's per-item rules (CKWS's `update`, `replace` and tag-checked `delete`), checked
/// inside the modify's own write transaction, and the write rules a save and an import share.
@Suite(.onEveryBackend) struct SaveRuleTests {
    private func note(_ name: String, in zone: ZoneID, _ fields: [String: FieldValue]) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
    }

    @Test func aDeleteWithAStaleTagIsAConflictCarryingTheServerRecord() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let first = try db.save(note("n1", in: zone, ["title": .string("one")]))
        var changed = first
        changed["title"] = .string("two")
        let current = try db.save(changed)
        let id = first.recordID

        let stale = try db.modifyRecords([.delete(id, ifChangeTag: first.recordChangeTag)])
        let error = try #require(stale.deleteResults.first?.result.failure)
        #expect(error.code == .serverRecordChanged)
        #expect(error.serverRecord?.recordChangeTag == current.recordChangeTag)
        #expect(error.serverRecord?["title"] == .string("two"))
        #expect(try db.record(for: id)["title"] == .string("two"))

        let done = try db.modifyRecords([.delete(id, ifChangeTag: current.recordChangeTag)])
        #expect(done.deleteResults.first?.result.failure == nil)
        #expect(throws: CloudKitError.self) { try db.record(for: id) }

        let gone = try db.modifyRecords([.delete(id, ifChangeTag: current.recordChangeTag)])
        #expect(gone.deleteResults.first?.result.failure?.code == .unknownItem)
    }

    @Test func anUpdateMayLeaveTheTypeToTheServer() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let saved = try db.save(note("n1", in: zone, ["title": .string("one"), "body": .string("text")]))
        var update = Record(recordType: "", recordID: saved.recordID)
        update.recordChangeTag = saved.recordChangeTag
        update["title"] = .string("renamed")

        // Without the rule, an empty type is a change of type, refused.
        let plain = try db.modifyRecords([.save(update, SaveRule())])
        #expect(plain.saveResults.first?.result.failure?.code == .invalidArguments)

        let result = try db.modifyRecords([.save(update, SaveRule(typeFromServer: true))])
        let stored = try #require(try result.saveResults.first?.result.get())
        #expect(stored.recordType == "Note")
        let fetched = try db.record(for: saved.recordID)
        #expect(fetched.recordType == "Note")
        #expect(fetched.fields == ["title": .string("renamed"), "body": .string("text")])

        // The tag is still checked.
        let stale = try db.modifyRecords([.save(update, SaveRule(typeFromServer: true))])
        #expect(stale.saveResults.first?.result.failure?.code == .serverRecordChanged)
    }

    @Test func aReplaceClearsTheFieldsItLeavesOut() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let saved = try db.save(note("n1", in: zone, ["title": .string("one"), "body": .string("text"), "count": .int64(3)]))
        var replacement = note("n1", in: zone, ["title": .string("only")])
        replacement.recordChangeTag = saved.recordChangeTag

        let replaced = try db.modifyRecords([.save(replacement, SaveRule(replacesFields: true))])
        let stored = try #require(try replaced.saveResults.first?.result.get())
        #expect(try db.record(for: saved.recordID).fields == ["title": .string("only")])

        // all-keys alone keeps what the record leaves out; with the rule it is cleared, no tag checked.
        _ = try db.modifyRecords(saving: [note("n1", in: zone, ["body": .string("back")])], savePolicy: .allKeys)
        #expect(try db.record(for: saved.recordID).fields.keys.sorted() == ["body", "title"])
        _ = try db.modifyRecords([.save(note("n1", in: zone, ["count": .int64(9)]), SaveRule(policy: .allKeys, replacesFields: true))])
        #expect(try db.record(for: saved.recordID).fields == ["count": .int64(9)])

        // A replace based on an older copy is a conflict, and clears nothing.
        replacement.recordChangeTag = stored.recordChangeTag
        let stale = try db.modifyRecords([.save(replacement, SaveRule(replacesFields: true))])
        #expect(stale.saveResults.first?.result.failure?.code == .serverRecordChanged)
        #expect(try db.record(for: saved.recordID).fields == ["count": .int64(9)])
    }

    @Test func mixedRulesFailTogetherInOneAtomicWrite() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let a = try db.save(note("a", in: zone, ["title": .string("a"), "body": .string("a")]))
        let b = try db.save(note("b", in: zone, ["title": .string("b")]))
        let c = try db.save(note("c", in: zone, ["title": .string("c")]))
        var replaceA = note("a", in: zone, ["title": .string("A")])
        replaceA.recordChangeTag = a.recordChangeTag
        var forceB = b
        forceB["title"] = .string("B")
        let operations: [RecordOperation] = [
            .save(replaceA, SaveRule(replacesFields: true)),
            .save(forceB, SaveRule(policy: .changedKeys)),
            .save(note("d", in: zone, ["title": .string("d")]), SaveRule()),
            .delete(c.recordID, ifChangeTag: "stale"),
        ]

        // Atomically, the stale delete fails every other item under its rule too: nothing is written.
        let atomic = try db.modifyRecords(operations, atomically: true)
        #expect(atomic.saveResults.map { $0.result.failure?.code } == [.batchRequestFailed, .batchRequestFailed, .batchRequestFailed])
        #expect(atomic.deleteResults.map { $0.result.failure?.code } == [.serverRecordChanged])
        #expect(try db.record(for: a.recordID).fields == a.fields)
        #expect(try db.record(for: b.recordID)["title"] == .string("b"))
        #expect(throws: CloudKitError.self) { try db.record(for: RecordID(recordName: "d", zoneID: zone)) }

        // Not atomically, each item stands alone.
        let loose = try db.modifyRecords(operations, atomically: false)
        #expect(loose.saveResults.allSatisfy { $0.result.failure == nil })
        #expect(loose.deleteResults.first?.result.failure?.code == .serverRecordChanged)
        #expect(try db.record(for: a.recordID).fields == ["title": .string("A")])
        #expect(try db.record(for: b.recordID)["title"] == .string("B"))
        #expect(try db.record(for: c.recordID)["title"] == .string("c"))
    }

    @Test func aRecordSavedAgainUnderADeletedNameIsNoLongerDeleted() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try db.save(note("kept", in: zone, [:]))
        let first = try db.save(note("n1", in: zone, ["title": .string("one")]))
        try db.deleteRecord(withID: first.recordID)
        try db.save(note("n1", in: zone, ["title": .string("again")]))
        let changes = try db.recordZoneChanges(inZoneWith: zone).changes
        let deleted = changes.compactMap { change -> String? in
            if case .deleted(let id, _) = change { return id.recordName }
            return nil
        }
        #expect(deleted.isEmpty)
        #expect(changes.map(\.recordID.recordName).sorted() == ["kept", "n1"])
    }

    @Test func aSaveAndAnImportMeetTheSameRules() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        /// The save's refusal and the import's of one record.
        func refusals(_ record: Record) throws -> (save: CloudKitError?, import: CloudKitError?) {
            let saved = try db.modifyRecords(saving: [record]).saveResults.first?.result.failure
            do {
                try db.importRecords([record])
                return (saved, nil)
            } catch let error as CloudKitError {
                return (saved, error)
            }
        }
        let big = Record(recordType: "Note", recordID: RecordID(recordName: "big"), fields: ["text": .string(String(repeating: "x", count: 1_100_000))])
        let tooLarge = try refusals(big)
        #expect(tooLarge.save?.code == .limitExceeded)
        #expect(tooLarge.import?.code == .limitExceeded)
        #expect(tooLarge.import?.message == tooLarge.save?.message)

        let missing = Asset(fileChecksum: String(repeating: "ab", count: 32), size: 3)
        let pointing = Record(recordType: "Note", recordID: RecordID(recordName: "pointing"), fields: ["file": .asset(missing)])
        let noAsset = try refusals(pointing)
        #expect(noAsset.save?.code == .assetFileNotFound)
        // An import's refusal names its record; the rule's words are the save's.
        #expect(noAsset.import?.message == "Record 'pointing': " + (noAsset.save?.message ?? "none"))
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
