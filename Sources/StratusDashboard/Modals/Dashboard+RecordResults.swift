import Foundation
import StratusModel
import StratusCloud

extension Dashboard {
    /// Results for the dialogs: a record loaded for the inspector or the form, a save, a delete.
    static func receiveRecord(_ state: inout DashboardState, _ message: RecordMessage) -> [Effect] {
        switch message {
        case .loaded(let job, let result, let purpose):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let record):
                state.succeeded()
                switch purpose {
                case .refreshInspector:
                    if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                        inspector.record = record
                        inspector.loadingJob = nil
                        state.topModal = .inspector(inspector)
                    }
                case .openInspector:
                    return Inspector.open(&state, record: record, partial: false)
                case .edit:
                    state.modals.append(.form(RecordForm.makeForm(state, record: record, isNew: false)))
                }
            case .failure(let error):
                if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                    inspector.loadingJob = nil
                    state.topModal = .inspector(inspector)
                }
                state.status = .error(error)
            }
            return []

        case .saved(let job, let result, let isNew):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            return RecordForm.saveFinished(&state, job: job, result: result, isNew: isNew)

        case .deleted(let job, let result, let recordID):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let cascaded):
                let gone = Set([recordID] + cascaded)
                state.query.remove(gone)
                state.query.list.clamp(count: state.query.rowCount, visible: Layout.queryRows(state.size))
                state.fetch.markDeleted(gone)
                state.modals.removeAll { modal in
                    if case .inspector(let inspector) = modal { return gone.contains(inspector.record.recordID) }
                    return false
                }
                let extra = cascaded.isEmpty ? "" : " and \(cascaded.count) record(s) pointing at it with DELETE_SELF"
                state.status = StatusMessage("Deleted \(recordID.recordName)\(extra).", kind: .success)
                return QueryTab.refreshAfterEdit(&state, selecting: nil)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .graphRead(let recordID, let result):
            Inspector.graphRead(&state, recordID, result)
            return []
        }
    }
}
