import Foundation
import StratusEngine
import StratusModel
import StratusCloud

extension Dashboard {
    /// Results for the dialogs: the filter editor's check, a record loaded for the inspector or the form, a save, a delete.
    static func receiveModals(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .filterChecked(let generation, let check):
            guard case .filterEditor(var editor)? = state.modals.last(where: { if case .filterEditor = $0 { return true }; return false }),
                  editor.generation == generation else { return [] }
            editor.check = FilterArgumentRow.explain(check, rows: editor.argumentRows)
            if editor.applyWhenChecked, case .filterEditor? = state.topModal {
                editor.applyWhenChecked = false
                return applyFilter(&state, editor)
            }
            replaceFilterEditor(&state, editor)
            return []

        case .recordLoaded(let job, let result, let purpose):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let record):
                switch purpose {
                case .refreshInspector:
                    if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                        inspector.record = record
                        inspector.loadingJob = nil
                        state.topModal = .inspector(inspector)
                    }
                case .openInspector:
                    state.modals.append(.inspector(InspectorState(record: record)))
                case .edit:
                    state.modals.append(.form(makeForm(state, record: record, isNew: false)))
                }
            case .failure(let error):
                if case .inspector(var inspector)? = state.topModal, inspector.loadingJob == job {
                    inspector.loadingJob = nil
                    state.topModal = .inspector(inspector)
                }
                state.status = .error(error)
            }
            return []

        case .saveFinished(let job, let result, let isNew):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            return saveFinished(&state, job: job, result: result, isNew: isNew)

        case .deleteFinished(let job, let result, let recordID):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let cascaded):
                let gone = Set([recordID] + cascaded)
                state.query.remove(gone)
                state.query.list.clamp(count: state.query.rowCount, visible: Layout.queryRows(state.size))
                for index in state.fetch.rows.indices where state.fetch.rows[index].record.map({ gone.contains($0.recordID) }) ?? false {
                    state.fetch.rows[index].record = nil
                    state.fetch.rows[index].error = CloudKitError(.unknownItem, "deleted")
                }
                state.modals.removeAll { modal in
                    if case .inspector(let inspector) = modal { return gone.contains(inspector.record.recordID) }
                    return false
                }
                let extra = cascaded.isEmpty ? "" : " and \(cascaded.count) record(s) pointing at it with DELETE_SELF"
                state.status = StatusMessage("Deleted \(recordID.recordName)\(extra).", kind: .success)
                return refreshAfterEdit(&state, selecting: nil)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        default:
            return []
        }
    }

    static func replaceFilterEditor(_ state: inout DashboardState, _ editor: FilterEditorState) {
        guard let index = state.modals.lastIndex(where: { if case .filterEditor = $0 { return true }; return false }) else { return }
        state.modals[index] = .filterEditor(editor)
    }
}
