import StratusEngine

/// The Query tab's whole result, counted in the background after its first page: the header
/// says how many records match, and `G` reaches the last one (a fetch of its page from the
/// page's cursor, nothing in between), on a zone of a million records too.
extension Dashboard {
    static func startMappingResult(_ state: inout DashboardState) -> [Effect] {
        guard let cursor = state.query.cursor, let request = state.query.request, let first = state.query.pages.first else { return [] }
        var effects = stopMappingResult(&state)
        // Not a job of the spinner: the header shows its progress, and Esc leaves it running.
        let job = state.nextJobID
        state.nextJobID += 1
        state.query.mapJob = job
        state.query.countedSoFar = state.query.loadedCount
        effects.append(.mapResult(job: job, request: request, after: cursor, firstPageCount: first.count, zone: state.zone, scope: state.scope))
        return effects
    }

    static func stopMappingResult(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.query.mapJob else { return [] }
        state.query.mapJob = nil
        state.query.countedSoFar = nil
        state.query.wantsLast = false
        return [.cancel(job: job)]
    }

    static func resultMapped(_ state: inout DashboardState, job: Int, _ result: Result<[ResultPage], CloudKitError>) -> [Effect] {
        guard state.query.mapJob == job else { return [] }
        state.query.mapJob = nil
        switch result {
        case .success(let map):
            state.query.adoptPageMap(map)
            let visible = Layout.queryRows(state.size)
            if state.query.wantsLast {
                state.query.wantsLast = false
                state.query.list.move(to: state.query.loadedCount - 1, count: state.query.loadedCount, visible: visible)
                state.status = nil
            }
            state.query.list.clamp(count: state.query.loadedCount, visible: visible)
            return loadMoreIfNeeded(&state)
        case .failure(let error):
            state.query.countedSoFar = nil
            state.status = StatusMessage("Could not count the result: \(error.description)", kind: .error)
            return []
        }
    }
}
