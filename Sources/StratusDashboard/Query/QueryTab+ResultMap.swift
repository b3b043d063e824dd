import StratusCloud

/// The Query tab's whole result, counted in the background after its first page: the header
/// says how many records match, and `G` reaches the last one (a fetch of its page from the
/// page's cursor, nothing in between), on a zone of a million records too.
extension QueryTab {
    static func startMappingResult(_ state: inout DashboardState) -> [Effect] {
        guard let cursor = state.query.cursor, let request = state.query.request, let first = state.query.pages.first else { return [] }
        var effects = stopMappingResult(&state)
        // Not a job of the spinner: the header shows its progress, and Esc leaves it running.
        let job = state.nextJobID
        state.nextJobID += 1
        state.query.mapJob = job
        state.query.countedSoFar = state.query.loadedCount
        effects.append(.query(.countFromIndex(job: job, request: request, zone: state.zone, scope: state.scope)))
        effects.append(.query(.mapResult(job: job, request: request, after: cursor, firstPageCount: first.count, zone: state.zone, scope: state.scope)))
        return effects
    }

    static func stopMappingResult(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.query.mapJob else { return [] }
        state.query.mapJob = nil
        state.query.countedSoFar = nil
        state.query.indexedCount = nil
        return [.cancel(job: job)]
    }

    /// `G` before the result is counted: the query is read from its end, and its last page
    /// shown at once (the count goes on, and numbers the rows when it is in).
    static func goToLast(_ state: inout DashboardState) -> [Effect] {
        state.query.wantsLast = true
        if state.query.tail != nil {
            state.query.list.move(to: state.query.rowCount - 1, count: state.query.rowCount, visible: Layout.queryRows(state.size))
            return []
        }
        guard state.query.tailJob == nil, let request = state.query.request else { return [] }
        let job = state.startJob(.query, "last page")
        state.query.tailJob = job
        return [.query(.loadTail(job: job, request: request, zone: state.zone, scope: state.scope))]
    }

    static func tailLoaded(_ state: inout DashboardState, job: Int, _ result: Result<[Record], CloudKitError>) -> [Effect] {
        guard state.query.tailJob == job else { return [] }
        state.endJob(job)
        state.query.tailJob = nil
        switch result {
        case .success(let rows):
            // The count came first: G has been taken there already.
            guard state.query.matchCount == nil, state.query.wantsLast, !rows.isEmpty else { return [] }
            state.query.showTail(rows, visible: Layout.queryRows(state.size))
        case .failure(let error):
            state.status = StatusMessage("Could not read the result from its end (\(error.description)); G goes there when it is counted.", kind: .error)
        }
        return []
    }

    /// Moves in the tail: up from its first row the rows before it are not numbered yet.
    static func moveInTail(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        let visible = Layout.queryRows(state.size)
        if action == .top {
            state.query.leaveTail()
            state.query.wantsLast = false
            state.query.list = ListCursor()
            return loadMoreIfNeeded(&state)
        }
        if state.query.list.selected == 0, action == .up || action == .pageUp {
            state.status = StatusMessage("These are the last \(state.query.rowCount) records; the ones before them come when the result is counted (\((state.query.countedSoFar ?? 0).formatted()) so far). g goes to the first.")
            return []
        }
        Dashboard.move(&state.query.list, action, count: state.query.rowCount, visible: visible)
        return []
    }

    static func resultMapped(_ state: inout DashboardState, job: Int, _ result: Result<[ResultPage], CloudKitError>) -> [Effect] {
        guard state.query.mapJob == job else { return [] }
        state.query.mapJob = nil
        switch result {
        case .success(let map):
            state.query.adoptPageMap(map)
            let visible = Layout.queryRows(state.size)
            if let row = state.query.leaveTail() {
                // The tail read from the end gets its numbers: the same record stays selected.
                state.query.wantsLast = false
                state.query.list.move(to: row, count: state.query.loadedCount, visible: visible)
            } else if state.query.wantsLast {
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
