import Foundation
import StratusEngine
import StratusModel

/// The dialogs' effects: loading, saving and deleting one record.
extension EffectRunner {
    /// Loads, saves and deletes records for the dialogs (each write undoable).
    func executeRecord(_ effect: RecordEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job, let recordID, let scope, let purpose):
            let result = capture { try database(scope).record(for: recordID) }
            guard !isCancelled(job) else { return }
            post(.record(.loaded(job: job, result, purpose: purpose)))

        case .save(let job, let record, let policy, let scope, let isNew):
            // The record as it was, so the save can be undone.
            let before = isNew ? nil : try? database(scope).withoutFaults.record(for: record.recordID)
            let result = capture {
                let result = try database(scope).modifyRecords(saving: [record], savePolicy: policy)
                return try result.saveResults[0].result.get()
            }
            if case .success(let saved) = result { post(.undo(.undoable(UndoEntry(change: .save(before: before, after: saved), scope: scope, job: job)))) }
            post(.record(.saved(job: job, result, isNew: isNew)))

        case .delete(let job, let recordID, let scope):
            // The whole record, so the delete can be undone.
            let before = try? database(scope).withoutFaults.record(for: recordID)
            let result = capture {
                let result = try database(scope).modifyRecords(deleting: [recordID])
                try result.deleteResults[0].result.get()
                return result
            }
            // The records the delete took through DELETE_SELF come back with it on undo, each
            // after the record it points at.
            if case .success(let done) = result, let before {
                let taken = [before] + done.cascadeDeletedRecords
                post(.undo(.undoable(UndoEntry(change: .delete(taken, complete: done.cascadeDeletedRecords.count == done.cascadeDeletedRecordIDs.count),
                                         scope: scope, job: job))))
            }
            post(.record(.deleted(job: job, result.map(\.cascadeDeletedRecordIDs), recordID: recordID)))

        case .readGraph(let recordID, let scope, let recordTypes):
            let result = capture {
                let database = database(scope)
                return try CoreDataGraph.read(database.record(for: recordID), in: database, recordTypes: recordTypes)
            }
            post(.record(.graphRead(recordID, result)))
        }
    }
}
