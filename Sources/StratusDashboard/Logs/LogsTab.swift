import StratusEngine
import StratusCloud

/// The Logs tab: the server's request log as it grows (the poll starts when the tab is first
/// opened and runs while the dashboard does), so a record saved over HTTP shows within a second.
enum LogsTab {
    static func startWatching(_ state: inout DashboardState) -> [Effect] {
        guard state.logs.watchJob == nil else { return [] }
        let job = state.nextJobID
        state.nextJobID += 1
        state.logs.watchJob = job
        state.logs.watchError = nil
        return [.logs(.watch(job: job, afterID: state.logs.entries.last?.id))]
    }

    static func stopWatching(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.logs.watchJob else { return [] }
        state.logs.watchJob = nil
        return [.cancel(job: job)]
    }

    static func requestsLogged(_ state: inout DashboardState, job: Int, _ result: Result<[RequestLogEntry], CloudKitError>) -> [Effect] {
        guard state.logs.watchJob == job else { return [] }
        switch result {
        case .success(let entries):
            state.logs.receive(entries, visible: Layout.zonesRows(state.size))
        case .failure(let error):
            state.logs.watchJob = nil
            state.logs.watchError = error.description
            state.status = .error(error)
        }
        return []
    }

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .clear:
            state.logs.entries = []
            state.logs.list = ListCursor()
            return []
        case .copy:
            guard state.logs.entries.indices.contains(state.logs.list.selected) else { return [] }
            let entry = state.logs.entries[state.logs.list.selected]
            return Dashboard.copy(&state, LogsTabView.text(entry, users: state.users), what: "log line")
        case .run:
            return startWatching(&state)
        case .open:
            guard state.logs.entries.indices.contains(state.logs.list.selected) else { return [] }
            return [.logs(.loadBodies(entry: state.logs.entries[state.logs.list.selected]))]
        default:
            return []
        }
    }
}
