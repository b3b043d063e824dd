/// Writes to a production container ask first: the effects that write are held behind a y/n
/// dialog and run only on `y` (`--yes` turns this off, for scripts). A write confirmed in its
/// own dialog (a delete's) is not asked again: that dialog says it is production.
enum ProductionWrites {
    /// `effects` with the writes held behind the dialog, when the container asks before writes
    /// and the user has not just said yes to them.
    static func gate(_ state: inout DashboardState, _ effects: [Effect], confirmedAlready: Bool) -> [Effect] {
        guard let remote = state.remote, remote.confirmsWrites, !confirmedAlready else { return effects }
        let writes = effects.filter { $0.writeJob != nil }
        guard !writes.isEmpty else { return effects }
        let what = writes.map(\.writeLabel).joined(separator: ", ")
        state.modals.append(.confirm(ConfirmState(
            title: "Write to production?",
            message: "This \(what) goes to remote \(remote.name), a production container: real users' data. y writes it, n leaves it.",
            action: HeldWrites(effects: writes))))
        return effects.filter { $0.writeJob == nil }
    }

    /// The line a confirmation dialog adds when what it confirms writes to production.
    static func warning(_ state: DashboardState) -> String? {
        guard let remote = state.remote, remote.confirmsWrites else { return nil }
        return "It writes to remote \(remote.name), a production container."
    }
}

/// Writes held until the user answers the production dialog.
struct HeldWrites: ConfirmAction {
    let effects: [Effect]

    func confirmed(in state: inout DashboardState) -> [Effect] { effects }

    /// `n`: nothing is sent; the jobs started for the writes end.
    func declined(in state: inout DashboardState) -> [Effect] {
        for job in effects.compactMap(\.writeJob) { state.endJob(job) }
        state.status = StatusMessage("Nothing was written to production.")
        return []
    }
}

extension Effect {
    /// The job of an effect that writes to the container (records, zones, subscriptions); nil
    /// for reads and for what stays on this machine.
    var writeJob: Int? {
        switch self {
        case .record(.save(let job, _, _, _, _)), .record(.delete(let job, _, _)): return job
        case .zones(.create(let job, _, _)), .zones(.delete(let job, _, _)): return job
        case .subscriptions(.save(let job, _, _)), .subscriptions(.delete(let job, _, _)): return job
        case .undo(.run(let job, _, _)), .query(.bulkDelete(let job, _, _, _)): return job
        case .sharing(.changeParticipant(let job, _, _, _)): return job
        default: return nil
        }
    }

    /// The write in a few words, for the dialog.
    var writeLabel: String {
        switch self {
        case .record(.save(_, let record, _, _, let isNew)): return "\(isNew ? "new record" : "save of") \(record.recordName)"
        case .record(.delete(_, let recordID, _)): return "delete of \(recordID.recordName)"
        case .zones(.create(_, let zone, _)): return "new zone \(zone.zoneName)"
        case .zones(.delete(_, let zone, _)): return "delete of zone \(zone.zoneName)"
        case .subscriptions(.save(_, let subscription, _)): return "subscription \(subscription.subscriptionID)"
        case .subscriptions(.delete(_, let id, _)): return "delete of subscription \(id)"
        case .undo(.run(_, _, let redo)): return redo ? "redo" : "undo"
        case .query(.bulkDelete): return "bulk delete"
        default: return "write"
        }
    }
}
