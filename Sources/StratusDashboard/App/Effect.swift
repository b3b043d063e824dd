import StratusEngine

/// Work for the effect runner: engine calls, the clipboard, theme files, preferences.
enum Effect: Sendable {
    case cancel(job: Int)
    case copy(String)
    case loadTheme(String)
    case savePreferences(DashboardPreferences)
    case loadUsers(job: Int)
    /// Acts as another user (or no user) from now on.
    case actAs(Caller)
    /// Esc while a remote's throttling is waited out: the wait ends, the call fails.
    case stopThrottleWait

    // Each tab's (and feature's) work, in its own type.
    case query(QueryEffect)
    case fetch(FetchEffect)
    case changes(ChangesEffect)
    case zones(ZonesEffect)
    case schema(SchemaEffect)
    case subscriptions(SubscriptionsEffect)
    case sharing(SharingEffect)
    case logs(LogsEffect)
    case faults(FaultsEffect)
    case export(ExportEffect)
    case undo(UndoEffect)
    case record(RecordEffect)

    /// Effects the app runs on the UI thread at once (quick, and their result belongs to this
    /// keystroke's frame). Checking a filter is not one: it reads the schema through the
    /// service, which may be a network away.
    var isImmediate: Bool {
        switch self {
        case .cancel, .copy, .loadTheme, .actAs, .stopThrottleWait: return true
        default: return false
        }
    }
}
