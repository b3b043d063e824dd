import Foundation
import StratusCloud

/// Counting what a filter matches, and deleting it in CloudKit-sized batches.
extension EffectRunner {
    /// Walks the whole result without its fields, posting the count as it grows.
    func countMatches(job: Int, _ request: QueryRequest, zone: ZoneID, scope: DatabaseScope, post: @Sendable (DashboardMessage) -> Void) {
        var counting = request
        counting.desiredKeys = []
        counting.resultsLimit = CloudKitLimits.maximumQueryLimit
        let result = capture { () throws -> Int? in
            var count = 0
            let finished = try walkResult(job: job, counting, zone: zone, scope: scope) { page, _ in
                count += page.records.count
                if page.cursor != nil { post(.query(.counting(job: job, countedSoFar: count))) }
                return true
            }
            return finished ? count : nil
        }
        switch result {
        case .success(let count?): post(.query(.counted(job: job, .success(count))))
        case .success(nil): break
        case .failure(let error): post(.query(.counted(job: job, .failure(error))))
        }
    }

    /// Deletes every record `request` matches, a batch of up to 400 at a time (each batch one
    /// transaction), until none is left or the job is cancelled; what is deleted stays deleted.
    func bulkDelete(job: Int, _ request: QueryRequest, zone: ZoneID, scope: DatabaseScope, post: @Sendable (DashboardMessage) -> Void) {
        var batchRequest = request
        // Whole records, kept for undo (up to ``UndoStack/maximumKeptRecords``).
        batchRequest.desiredKeys = nil
        batchRequest.resultsLimit = CloudKitLimits.maximumBatchSize
        var deleted = 0
        let result = capture { () throws -> Int? in
            while true {
                if isCancelled(job) {
                    // Esc came during the batch before: say what the delete did in the end.
                    post(.query(.bulkDeleteStopped(job: job, deleted: deleted)))
                    return nil
                }
                // Past what undo keeps, the records' fields are not read any more.
                batchRequest.desiredKeys = deleted < UndoStack.maximumKeptRecords ? nil : []
                // Always the first page: the records deleted before are no longer in it.
                let page = try services.queryRunner.run(batchRequest, zone: zone, scope: scope)
                guard !page.records.isEmpty else { return deleted }
                let outcome = try database(scope).modifyRecords(deleting: page.records.map(\.recordID), atomically: false)
                let gone = zip(page.records, outcome.deleteResults).filter { (try? $0.1.result.get()) != nil }.map(\.0)
                let done = gone.count
                if done == 0, let failure = outcome.partialFailure {
                    // Nothing in this batch could go (permissions, say): stop rather than ask again for ever.
                    throw failure.partialErrors.values.first ?? failure
                }
                deleted += done + outcome.cascadeDeletedRecordIDs.count
                // What the batch took through DELETE_SELF comes back with it on undo.
                let taken = gone + outcome.cascadeDeletedRecords
                post(.query(.bulkDeleteProgress(job: job, deleted: deleted, records: deleted - taken.count < UndoStack.maximumKeptRecords ? taken : [])))
            }
        }
        switch result {
        case .success(let count?): post(.query(.bulkDeleteFinished(job: job, .success(count))))
        case .success(nil): break
        case .failure(let error): post(.query(.bulkDeleteFinished(job: job, .failure(error))))
        }
    }
}
