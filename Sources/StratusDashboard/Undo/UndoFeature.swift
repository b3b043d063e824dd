import StratusCloud

/// `U` and `R`: undo and redo this session's saves and deletes (form saves, `d`, `Ctrl-X`).
enum UndoFeature {
    static func startUndo(_ state: inout DashboardState, redo: Bool) -> [Effect] {
        guard !state.jobs.contains(where: { $0.kind == .undo }) else { return [] }
        guard let entry = state.undo.take(redo: redo) else {
            state.status = StatusMessage(redo ? "Nothing to redo." : "Nothing to undo: no save or delete in this session yet.")
            return []
        }
        let job = state.startJob(.undo, "\(redo ? "redo" : "undo") the \(entry.label)")
        state.status = StatusMessage("\(redo ? "Redoing" : "Undoing") the \(entry.label)…")
        return [.undo(.run(job: job, entry, redo: redo))]
    }

    static func undoFinished(_ state: inout DashboardState, job: Int, redo: Bool, _ result: Result<(UndoEntry, String), CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else {
            state.undo.fail()
            return []
        }
        state.endJob(job)
        switch result {
        case .success(let (entry, done)):
            state.undo.finish(entry)
            state.status = StatusMessage(done, kind: .success)
            // The results show the store as it is now, on the record put back.
            let selecting: RecordID?
            switch (entry.change, redo) {
            case (.save(_, let after), _): selecting = after.recordID
            case (.delete(let records, _), false): selecting = records.first?.recordID
            case (.delete, true): selecting = nil
            }
            return QueryTab.refreshAfterEdit(&state, selecting: selecting)
        case .failure(let error):
            state.undo.fail()
            state.status = .error(error)
            return []
        }
    }

    /// Undo entries as writes finish, and undo and redo themselves.
    static func receive(_ state: inout DashboardState, _ message: UndoMessage) -> [Effect] {
        switch message {
        case .undoable(let entry):
            state.undo.record(entry)
            return []

        case .finished(let job, let redo, let result):
            return undoFinished(&state, job: job, redo: redo, result)
        }
    }
}
