import StratusEngine
import StratusCloud

/// The Faults tab: the fault plan (what each fault does, how often it saw and fired), adding a
/// fault (a kind, then its options in the command line's words, checked as typed), removing
/// one or all; and compaction from the Changes tab.
enum FaultsTab {
    static func startWatching(_ state: inout DashboardState) -> [Effect] {
        guard state.faults.watchJob == nil else { return [] }
        let job = state.nextJobID
        state.nextJobID += 1
        state.faults.watchJob = job
        state.faults.watchError = nil
        return [.faults(.watch(job: job, afterEventID: state.faults.events.last?.id))]
    }

    static func stopWatching(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.faults.watchJob else { return [] }
        state.faults.watchJob = nil
        return [.cancel(job: job)]
    }

    /// Starts the header's read of the plan (it runs while the dashboard does).
    static func startWatchingPlan(_ state: inout DashboardState) -> [Effect] {
        guard state.faults.planJob == nil else { return [] }
        let job = state.nextJobID
        state.nextJobID += 1
        state.faults.planJob = job
        return [.faults(.watchPlan(job: job))]
    }

    static func stopWatchingPlan(_ state: inout DashboardState) -> [Effect] {
        guard let job = state.faults.planJob else { return [] }
        state.faults.planJob = nil
        return [.cancel(job: job)]
    }

    static func receive(_ state: inout DashboardState, _ message: FaultsMessage) -> [Effect] {
        switch message {
        case .polled(let job, let result): return faultsPolled(&state, job: job, result)
        case .changed(let job, let result): return faultsChanged(&state, job: job, result)
        case .plan(let job, let faults):
            if state.faults.planJob == job { state.faults.armed = faults }
            return []
        case .historyCompacted(let job, let result): return historyCompacted(&state, job: job, result)
        }
    }

    static func faultsPolled(_ state: inout DashboardState, job: Int, _ result: Result<FaultsSnapshot, CloudKitError>) -> [Effect] {
        guard state.faults.watchJob == job else { return [] }
        switch result {
        case .success(let snapshot):
            state.faults.receive(snapshot, visible: Layout.faultRows(state.size))
            state.faults.armed = snapshot.faults.filter { !$0.isSpent }
        case .failure(let error):
            state.faults.watchJob = nil
            state.faults.watchError = error.description
            state.status = .error(error)
        }
        return []
    }

    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .create:
            let items = FaultKind.allCases.map { PickerItem(label: $0.name, detail: FaultsTabView.kindSummary($0), value: $0.rawValue) }
            state.modals.append(.picker(PickerState(purpose: FaultKindPick(), title: "Add a fault", items: items)))
            return []
        case .delete:
            guard let fault = state.faults.selectedFault else {
                state.status = StatusMessage("Pick a fault to remove.", kind: .error)
                return []
            }
            state.modals.append(.confirm(ConfirmState(title: "Remove fault #\(fault.id)",
                                                      message: "Take \(fault.kind.name) out of the plan? Calls stop meeting it at once.",
                                                      action: FaultRemoval(id: fault.id))))
            return []
        case .clear:
            guard !state.faults.faults.isEmpty else {
                state.status = StatusMessage("The fault plan is empty already.")
                return []
            }
            state.modals.append(.confirm(ConfirmState(title: "Clear the fault plan",
                                                      message: "Remove all \(state.faults.faults.count) faults and their log? Every call behaves again.",
                                                      action: FaultRemoval(id: nil))))
            return []
        case .copy:
            guard let fault = state.faults.selectedFault else { return [] }
            return Dashboard.copy(&state, "#\(fault.id) \(fault.summary)", what: "fault")
        case .run:
            return startWatching(&state)
        default:
            return []
        }
    }

    /// The kind was picked: now its options.
    /// A change to the plan finished: say what it did, and poll at once.
    static func faultsChanged(_ state: inout DashboardState, job: Int, _ result: Result<String, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        switch result {
        case .success(let done): state.status = StatusMessage(done, kind: .success)
        case .failure(let error): state.status = .error(error)
        }
        return stopWatching(&state) + startWatching(&state)
    }

    // MARK: - Compaction (Changes tab)

    /// `K` in the Changes tab: where to compact the zone's history.
    static func compactionPicker(_ state: inout DashboardState) -> [Effect] {
        guard state.zone.zoneName != ZoneID.defaultZoneName else {
            state.status = StatusMessage("The default zone has no change history to compact; pick a custom zone (z).", kind: .error)
            return []
        }
        var items: [PickerItem] = []
        if let token = state.changes.token {
            items.append(PickerItem(label: "Before the token of the last playback", detail: Dashboard.abbreviated(token), value: "token:" + token))
        }
        let since = state.changes.since.trimmingCharacters(in: .whitespaces)
        if !since.isEmpty { items.append(PickerItem(label: "Before the start token", detail: Dashboard.abbreviated(since), value: "token:" + since)) }
        for keep in [100, 10] { items.append(PickerItem(label: "Keep the newest \(keep) changes", value: "keep:\(keep)")) }
        items.append(PickerItem(label: "Keep none", detail: "every token but the current one expires", value: "keep:0"))
        state.modals.append(.picker(PickerState(purpose: CompactionPointPick(), title: "Compact the history of \(state.zone.zoneName)", items: items)))
        return []
    }

    /// What a compaction drops, asked as a question.
    static func compactionQuestion(zone: String, before: String?, keep: Int?) -> String {
        switch (before, keep) {
        case (_?, _): return "Drop the change history of \(zone) before that token?"
        case (nil, 0?): return "Drop all of the change history of \(zone)?"
        case (nil, let keep?): return "Drop the change history of \(zone) but its newest \(ViewKit.count(keep, "change"))?"
        case (nil, nil): return "Drop the change history of \(zone)?"
        }
    }

    static func historyCompacted(_ state: inout DashboardState, job: Int, _ result: Result<HistoryCompaction, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        switch result {
        case .success(let compaction):
            state.changes.oldestValidToken = (state.zone, compaction.oldestValidToken, compaction.compactedSequence > 0)
            state.status = StatusMessage("Compacted \(state.zone.zoneName) before change \(compaction.compactedSequence): dropped \(compaction.droppedDeletions) deletion\(compaction.droppedDeletions == 1 ? "" : "s"); older tokens now expire.", kind: .success)
        case .failure(let error):
            state.status = .error(error)
        }
        return []
    }
}
