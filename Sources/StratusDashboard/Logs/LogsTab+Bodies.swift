import StratusCloud
import StratusEngine

/// Enter on the Logs tab: the request's body and the server's answer, as the server kept them
/// for its newest requests (credentials masked).
extension LogsTab {
    static func bodiesLoaded(_ state: inout DashboardState, entry: RequestLogEntry, _ result: Result<RequestBodies?, CloudKitError>) -> [Effect] {
        switch result {
        case .success(let bodies?):
            state.modals.append(.requestBodies(RequestBodiesState(entry: entry, bodies: bodies)))
        case .success(nil):
            state.status = .note("No bodies kept for this request: the server keeps those of its newest \(Store.keptRequestBodies), and under load of the last few of each moment only.")
        case .failure(let error):
            state.status = .error(error)
        }
        return []
    }

    static func bodiesKey(_ state: inout DashboardState, _ bodies: RequestBodiesState, action: KeyAction?) -> [Effect] {
        var bodies = bodies
        let page = max(1, RequestBodiesView.rows(state.size))
        let lines = RequestBodiesView.lines(bodies, width: RequestBodiesView.textWidth(state.size)).count
        let last = max(0, lines - page)
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .copy?:
            return Dashboard.copy(&state, bodies.bodies.response, what: "response body of \(bodies.entry.endpoint)")
        case .copyRecord?:
            return Dashboard.copy(&state, bodies.bodies.request, what: "request body of \(bodies.entry.endpoint)")
        case .up?: bodies.scroll -= 1
        case .down?: bodies.scroll += 1
        case .pageUp?: bodies.scroll -= page
        case .pageDown?: bodies.scroll += page
        case .top?: bodies.scroll = 0
        case .bottom?: bodies.scroll = last
        default: return []
        }
        bodies.scroll = min(max(0, bodies.scroll), last)
        state.topModal = .requestBodies(bodies)
        return []
    }
}
