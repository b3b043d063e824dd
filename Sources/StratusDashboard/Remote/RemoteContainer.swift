import StratusCloud

/// The dashboard is on a remote container (`--remote NAME`), reached over CloudKit Web
/// Services: the header names it, the tabs CKWS cannot serve say so, Act As picks among the
/// signed-in user's databases, and writes to production ask first.
public struct RemoteContainer: Hashable, Sendable {
    /// The remote's name, as `stratus remote add` gave it (the advice names it).
    public var name: String
    public var environment: StoreEnvironment
    /// Every write asks y/n first: a production container, unless `--yes`.
    public var confirmsWrites: Bool

    public init(name: String, environment: StoreEnvironment, confirmsWrites: Bool) {
        self.name = name
        self.environment = environment
        self.confirmsWrites = confirmsWrites
    }

    /// What the header shows in place of the store's file.
    var label: String { "remote: \(name) (\(environment.rawValue))" }

    /// The status line's word when the session expired: what to type, nothing more.
    var signInAdvice: String { "session expired — run: stratus remote login \(name)" }
}

extension DashboardTab {
    /// Why the tab works on a local store only (nil when CloudKit Web Services serves it).
    var localOnlyReason: String? {
        switch self {
        case .schema: return "CloudKit Web Services has no schema endpoint (export it with cktool export-schema)"
        case .logs: return "the request log is what a local store's servers write"
        case .faults: return "the fault plan is a local store's sync lab"
        case .query, .fetch, .changes, .zones, .subscriptions, .sharing: return nil
        }
    }
}

extension DashboardState {
    /// Why the tab on screen cannot work here: a local-only tab on a remote container.
    var localOnlyReason: String? {
        guard remote != nil else { return nil }
        return tab.localOnlyReason
    }

    /// The one line a local-only tab shows on a remote, also said when one of its keys is pressed.
    var localOnlyLine: String? {
        guard let reason = localOnlyReason, let remote else { return nil }
        return "\(tab.title) is local-only: \(reason). It has nothing to show on remote \(remote.name)."
    }
}
