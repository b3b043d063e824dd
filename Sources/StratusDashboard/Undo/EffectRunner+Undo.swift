import StratusEngine
import StratusCloud

/// Undo and redo against the store: each checks that the record is as this dashboard left
/// it (its change tag), so an undo never overwrites someone else's later change.
extension EffectRunner {
    func undo(job: Int, _ entry: UndoEntry, redo: Bool, post: @Sendable (DashboardMessage) -> Void) {
        post(.undo(.finished(job: job, redo: redo, capture { try apply(entry, redo: redo) })))
    }

    /// Applies the inverse of `entry` (or, for redo, the change again); returns the entry with
    /// the records as they are now, and what it did.
    private func apply(_ entry: UndoEntry, redo: Bool) throws -> (UndoEntry, String) {
        let database = database(entry.scope)
        var updated = entry
        switch (entry.change, redo) {
        case (.save(nil, let after), false):
            _ = try unchanged(after, in: database)
            try database.deleteRecord(withID: after.recordID)
            return (updated, "Undid the creation of \(after.recordName): deleted it.")
        case (.save(let before?, let after), false):
            let restored = try overwrite(try unchanged(after, in: database), with: before, in: database)
            // Redo sets the save's fields again, on the record as this undo leaves it.
            var redo = after
            redo.recordChangeTag = restored.recordChangeTag
            updated.change = .save(before: before, after: redo)
            return (updated, "Undid the save of \(after.recordName): its fields are as before.")
        case (.save(nil, let after), true):
            var again = Record(recordType: after.recordType, recordID: after.recordID, fields: after.fields)
            again.parent = after.parent
            let saved = try database.save(again)
            updated.change = .save(before: nil, after: saved)
            return (updated, "Redid the creation of \(after.recordName).")
        case (.save(let before?, let after), true):
            let saved = try overwrite(try unchanged(after, in: database), with: after, in: database)
            updated.change = .save(before: before, after: saved)
            return (updated, "Redid the save of \(after.recordName).")
        case (.delete(let records, let complete), false):
            var restored: [Record] = []
            for batch in stride(from: 0, to: records.count, by: CloudKitLimits.maximumBatchSize) {
                let slice = records[batch..<min(records.count, batch + CloudKitLimits.maximumBatchSize)].map { record -> Record in
                    var fresh = Record(recordType: record.recordType, recordID: record.recordID, fields: record.fields)
                    fresh.parent = record.parent
                    return fresh
                }
                let result = try database.modifyRecords(saving: slice, atomically: false)
                restored += result.saveResults.compactMap { try? $0.result.get() }
            }
            updated.change = .delete(restored, complete: complete)
            let missing = records.count - restored.count
            let note = (missing > 0 ? "; \(missing.formatted()) could not be (a record of the name exists again)" : "")
                + (complete ? "" : "; records past the first \(UndoStack.maximumKeptRecords.formatted()) were not kept for undo")
            return (updated, "Undid the delete: put back \(restored.count.formatted()) record\(restored.count == 1 ? "" : "s")\(note).")
        case (.delete(let records, let complete), true):
            var deleted = 0
            for batch in stride(from: 0, to: records.count, by: CloudKitLimits.maximumBatchSize) {
                let ids = records[batch..<min(records.count, batch + CloudKitLimits.maximumBatchSize)].map(\.recordID)
                let result = try database.modifyRecords(deleting: ids, atomically: false)
                deleted += result.deleteResults.filter { (try? $0.result.get()) != nil }.count
            }
            updated.change = .delete(records, complete: complete)
            return (updated, "Redid the delete of \(deleted.formatted()) record\(deleted == 1 ? "" : "s").")
        }
    }

    /// Sets the server's record's fields to `target`'s (removing the others), based on its tag.
    private func overwrite(_ current: Record, with target: Record, in database: any CloudDatabaseService) throws -> Record {
        var record = current
        for key in Set(current.fields.keys).union(target.fields.keys) { record[key] = target.fields[key] }
        return try database.modifyRecords(saving: [record], savePolicy: .ifServerRecordUnchanged).savedRecords()[0]
    }

    /// The server's record, when it is still as this dashboard left it (`record`'s tag).
    private func unchanged(_ record: Record, in database: any CloudDatabaseService) throws -> Record {
        let server = try database.withoutFaults.record(for: record.recordID)
        guard server.recordChangeTag == record.recordChangeTag else {
            throw CloudKitError(.serverRecordChanged, "\(record.recordName) changed since this dashboard saved it (change tag \(server.recordChangeTag ?? "?")); left alone, to keep that change.",
                                serverRecord: server)
        }
        return server
    }
}
