import StratusEngine
import StratusTerminal
import StratusCloud

/// Everything that changes the state: input from the terminal and results posted back by
/// background work (each result names the job that asked for it; results of cancelled jobs
/// are dropped).
enum DashboardMessage: Sendable {
    case key(Key)
    case paste(String)
    /// A click or a turn of the wheel.
    case mouse(MouseEvent)
    case resize(Size)
    case tick
    case themeLoaded(name: String, Result<Theme, ThemeError>)
    case usersLoaded(job: Int, Result<[StoreUser], CloudKitError>)
    case jobEnded(job: Int)
    /// The preferences file (bookmarks, recent filters, Act As) could not be written.
    case preferencesNotSaved(path: String, reason: String)
    /// A remote throttled a call: whole seconds until it is sent again (nil: the wait ended).
    case throttled(secondsLeft: Int?)

    // Each tab's (and feature's) results, in its own type.
    case query(QueryMessage)
    case fetch(FetchMessage)
    case changes(ChangesMessage)
    case zones(ZonesMessage)
    case schema(SchemaMessage)
    case subscriptions(SubscriptionsMessage)
    case sharing(SharingMessage)
    case logs(LogsMessage)
    case faults(FaultsMessage)
    case export(ExportMessage)
    case undo(UndoMessage)
    case record(RecordMessage)
}
