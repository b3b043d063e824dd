import Foundation
import StratusModel

extension Dashboard {
    /// Results posted back by background work, each handed to its tab (or dialog, or feature).
    static func receive(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .recordCountsLoaded, .queryPage, .resultMapping, .tailLoaded, .resultMapped, .matchesCounting, .matchesCounted,
             .bulkDeleteProgress, .bulkDeleteFinished, .bulkDeleteStopped, .histogramLoaded:
            return QueryTab.receive(&state, message)
        case .fetchProgress, .fetchFinished:
            return FetchTab.receive(&state, message)
        case .changesPage, .changesFailed, .databaseChanges, .tokenTaken, .activityLoaded, .oldestTokenLoaded:
            return ChangesTab.receive(&state, message)
        case .zonesLoaded, .zoneTypeCountsLoaded, .zoneSaved, .zoneDeleted:
            return ZonesTab.receive(&state, message)
        case .schemaLoaded, .schemaDiffed, .schemaExported:
            return SchemaTab.receive(&state, message)
        case .subscriptionsLoaded, .subscriptionSaved, .subscriptionDeleted, .notificationsArrived, .notificationsFailed:
            return SubscriptionsTab.receive(&state, message)
        case .sharesLoaded(let job, let result, let done):
            return SharingTab.sharesLoaded(&state, job: job, result, done: done)
        case .shareStatusLoaded(let recordID, let note):
            return SharingTab.shareStatusLoaded(&state, recordID, note)
        case .requestsLogged(let job, let result):
            return LogsTab.requestsLogged(&state, job: job, result)
        case .faultsPolled(let job, let result):
            return FaultsTab.faultsPolled(&state, job: job, result)
        case .faultsChanged(let job, let result):
            return FaultsTab.faultsChanged(&state, job: job, result)
        case .historyCompacted(let job, let result):
            return FaultsTab.historyCompacted(&state, job: job, result)
        case .filterChecked(let generation, let check):
            return FilterEditor.filterChecked(&state, generation: generation, check)
        case .recordLoaded, .saveFinished, .deleteFinished:
            return receiveModals(&state, message)
        case .exportProgress(let job, let written, let total):
            return ExportFeature.exportProgressed(&state, job: job, written: written, total: total)
        case .exportFinished(let job, let result):
            return ExportFeature.exportFinished(&state, job: job, result)
        case .undoable, .undoFinished:
            return UndoFeature.receive(&state, message)
        case .usersLoaded(let job, let result):
            return usersLoaded(&state, job: job, result)
        case .themeLoaded, .jobEnded:
            return receiveApp(&state, message)
        case .key, .paste, .mouse, .resize, .tick:
            return []
        }
    }

    /// What is not a tab's: a theme loaded, a job that ended without a result.
    static func receiveApp(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .themeLoaded(let name, let result):
            switch result {
            case .success(let theme):
                state.theme = theme
                state.status = StatusMessage("Theme \(name).", kind: .success)
            case .failure(let error):
                state.status = StatusMessage("Theme not loaded: \(error.description)", kind: .error)
            }
            return []

        case .jobEnded(let job):
            state.endJob(job)
            return []

        default:
            return []
        }
    }
}
