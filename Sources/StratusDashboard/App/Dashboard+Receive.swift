import Foundation
import StratusModel

extension Dashboard {
    /// Results posted back by background work, each handed to its tab (or dialog, or feature).
    static func receive(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .query(let message): return QueryTab.receive(&state, message)
        case .fetch(let message): return FetchTab.receive(&state, message)
        case .changes(let message): return ChangesTab.receive(&state, message)
        case .zones(let message): return ZonesTab.receive(&state, message)
        case .schema(let message): return SchemaTab.receive(&state, message)
        case .subscriptions(let message): return SubscriptionsTab.receive(&state, message)
        case .sharing(let message): return SharingTab.receive(&state, message)
        case .logs(.requestsLogged(let job, let result)): return LogsTab.requestsLogged(&state, job: job, result)
        case .logs(.bodiesLoaded(let entry, let result)): return LogsTab.bodiesLoaded(&state, entry: entry, result)
        case .faults(let message): return FaultsTab.receive(&state, message)
        case .export(let message): return ExportFeature.receive(&state, message)
        case .undo(let message): return UndoFeature.receive(&state, message)
        case .record(let message): return receiveRecord(&state, message)
        case .usersLoaded(let job, let result):
            return usersLoaded(&state, job: job, result)
        case .throttled(let seconds):
            state.throttleSecondsLeft = seconds
            return []
        case .themeLoaded, .jobEnded, .preferencesNotSaved:
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

        case .preferencesNotSaved(let path, let reason):
            state.status = StatusMessage("Not saved to \(path): \(reason). Bookmarks and recent filters last until the dashboard closes.",
                                         kind: .error)
            return []

        default:
            return []
        }
    }
}
