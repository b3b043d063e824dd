import StratusEngine
import StratusModel
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

/// What a fetched single record is for.
enum RecordLoadPurpose: Hashable, Sendable {
    /// Refresh the inspector on top (it showed only the desired keys).
    case refreshInspector
    /// Open an inspector on it (a reference followed, a change event opened).
    case openInspector
    /// Open the edit form on it.
    case edit
}

/// The shares of the acting user, read together.
struct SharesSnapshot: Sendable {
    var owned: [Share]
    var accepted: [Share]

    init(owned: [Share], accepted: [Share]) {
        self.owned = owned
        self.accepted = accepted
    }
}

/// The schema and environment, read together.
struct SchemaSnapshot: Sendable {
    var types: [RecordTypeSchema]
    var environment: StoreEnvironment
    /// The roles the schema declares (`CREATE ROLE`).
    var roles: [String]
    /// Each record type's `GRANT` entries.
    var grants: [String: [GrantDeclaration]]

    init(types: [RecordTypeSchema], environment: StoreEnvironment, roles: [String] = [], grants: [String: [GrantDeclaration]] = [:]) {
        self.types = types
        self.environment = environment
        self.roles = roles
        self.grants = grants
    }
}

struct DatabaseChangesSummary: Sendable {
    var events: [ZoneChangeEvent]
    var token: String
}

/// Work for the effect runner: engine calls, the clipboard, theme files, preferences.
enum Effect: Sendable {
    case cancel(job: Int)
    case copy(String)
    case loadTheme(String)
    case savePreferences(DashboardPreferences)
    case loadUsers(job: Int)
    /// Acts as another user (or no user) from now on.
    case actAs(Caller)

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
        case .cancel, .copy, .loadTheme, .actAs: return true
        default: return false
        }
    }
}
