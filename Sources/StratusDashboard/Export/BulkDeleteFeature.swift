import Foundation
import StratusCloud

/// `Ctrl-X` in the Query tab: delete every record the current filter matches. It counts them
/// first (in the background), asks with the number, deletes in batches of 400 with progress,
/// and stops on Esc, saying how many went (what is deleted stays deleted).
enum BulkDeleteFeature {
    static func beginBulkDelete(_ state: inout DashboardState) -> [Effect] {
        guard let request = state.query.request, state.query.hasRun else {
            state.status = StatusMessage("Run a query first (r); Ctrl-X then deletes what it matches.", kind: .error)
            return []
        }
        state.query.bulkDeleted = 0
        // The Query tab counted its result already: ask at once.
        if let known = state.query.matchCount ?? state.query.indexedCount {
            askBulkDelete(&state, request, count: known)
            return []
        }
        let job = state.startJob(.bulkDelete, "count \(request.recordType) records to delete")
        state.status = StatusMessage("Counting the \(request.recordType) records the filter matches… (Esc cancels)")
        return [.query(.countMatches(job: job, request: request, zone: state.zone, scope: state.scope))]
    }

    static func matchesCounting(_ state: inout DashboardState, job: Int, _ count: Int) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.status = StatusMessage("Counting… \(count.formatted()) so far (Esc cancels)")
        return []
    }

    static func matchesCounted(_ state: inout DashboardState, job: Int, _ result: Result<Int, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil, let request = state.query.request else { return [] }
        state.endJob(job)
        switch result {
        case .success(let count): askBulkDelete(&state, request, count: count)
        case .failure(let error): state.status = .error(error)
        }
        return []
    }

    private static func askBulkDelete(_ state: inout DashboardState, _ request: QueryRequest, count: Int) {
        guard count > 0 else {
            state.status = StatusMessage("The filter matches no records: nothing to delete.")
            return
        }
        let records = ViewKit.count(count, "\(request.recordType) record")
        let what = request.filter.isEmpty ? (count == 1 ? "the only \(records)" : "all \(records)")
            : (count == 1 ? "the \(records) matching \(request.filter)" : "the \(records) matching \(request.filter)")
        state.modals.append(.confirm(ConfirmState(
            title: "Delete \(ViewKit.count(count, "record"))",
            message: "Delete \(what) in \(state.zone.zoneName)? In batches of \(CloudKitLimits.maximumBatchSize), each its own transaction; Esc stops between batches and what is deleted stays deleted. Records that point at them with DELETE_SELF go too.",
            action: BulkDeletion(count: count))))
        state.status = nil
    }

    static func bulkDeleteProgressed(_ state: inout DashboardState, job: Int, deleted: Int, records: [Record]) -> [Effect] {
        // The batch's records join the bulk delete's undo entry, also when it arrives after Esc.
        if state.undo.done.contains(where: { $0.job == job }) {
            state.undo.append(deleted: records, job: job)
        } else {
            state.undo.record(UndoEntry(change: .delete(Array(records.prefix(UndoStack.maximumKeptRecords)), complete: records.count <= UndoStack.maximumKeptRecords),
                                        scope: state.scope, job: job))
        }
        guard state.job(job) != nil else { return [] }
        state.query.bulkDeleted = deleted
        state.status = StatusMessage("Deleted \(deleted.formatted()) of \(state.query.bulkDeleteTotal.formatted())… (Esc stops)")
        return []
    }

    /// The delete Esc stopped has ended its last batch: say how many went in all, and run the
    /// query again so the rows and the count show what is left.
    static func bulkDeleteStopped(_ state: inout DashboardState, job: Int, deleted: Int) -> [Effect] {
        guard state.query.stoppingBulkDelete == job else { return [] }
        state.query.stoppingBulkDelete = nil
        state.query.bulkDeleted = deleted
        state.status = StatusMessage("Stopped the bulk delete: \(deleted.formatted()) record\(deleted == 1 ? " was" : "s were") deleted and stay\(deleted == 1 ? "s" : "") deleted.")
        return QueryTab.runQuery(&state)
    }

    static func bulkDeleteFinished(_ state: inout DashboardState, job: Int, _ result: Result<Int, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        var effects = QueryTab.runQuery(&state)
        switch result {
        case .success(let deleted):
            state.status = StatusMessage("Deleted \(deleted.formatted()) record\(deleted == 1 ? "" : "s").", kind: .success)
        case .failure(let error):
            state.status = StatusMessage("Stopped after deleting \(state.query.bulkDeleted.formatted()): \(error.description)", kind: .error)
            effects += []
        }
        return effects
    }
}
