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
    case loadZones(job: Int, scope: DatabaseScope)
    case loadSchema(job: Int)
    case loadRecordCounts(job: Int, zone: ZoneID, scope: DatabaseScope)
    case createZone(job: Int, zone: ZoneID, scope: DatabaseScope)
    case deleteZone(job: Int, zone: ZoneID, scope: DatabaseScope)
    case runQuery(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Page `page` of the results, from `cursor` (nil: the first page again).
    case queryPage(job: Int, page: Int, cursor: String?, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    case checkFilter(generation: Int, filter: String, arguments: [String], recordType: String)
    case fetch(job: Int, names: [String], desiredKeys: [String]?, zone: ZoneID, scope: DatabaseScope)
    case playChanges(job: Int, zone: ZoneID, scope: DatabaseScope, since: String?, desiredKeys: [String]?, pageSize: Int,
                     order: PlaybackOrder = .sequence)
    case databaseChanges(job: Int, scope: DatabaseScope, since: String?)
    case currentToken(job: Int, zone: ZoneID?, scope: DatabaseScope)
    case loadRecord(job: Int, recordID: RecordID, scope: DatabaseScope, purpose: RecordLoadPurpose)
    case save(job: Int, record: Record, policy: RecordSavePolicy, scope: DatabaseScope, isNew: Bool)
    case delete(job: Int, recordID: RecordID, scope: DatabaseScope)
    case cancel(job: Int)
    case copy(String)
    case loadTheme(String)
    case savePreferences(DashboardPreferences)
    case loadSubscriptions(job: Int, scope: DatabaseScope)
    case saveSubscription(job: Int, subscription: Subscription, scope: DatabaseScope)
    case deleteSubscription(job: Int, subscriptionID: String, scope: DatabaseScope)
    /// Polls `notifications(afterSequence:)` every ``SubscriptionsTabState/pollInterval`` until
    /// cancelled, as this dashboard's device; nil `afterSequence` first catches up with the
    /// notifications already there.
    case watchNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?)
    case exportSchema(job: Int, path: String)
    /// Compares the `.ckdb` file at `path` with the store's schema.
    case diffSchema(job: Int, path: String)
    case loadUsers(job: Int)
    /// Polls the store's request log every ``LogsTabState/pollInterval`` until cancelled.
    case watchRequestLog(job: Int, afterID: Int64?)
    case loadZoneTypeCounts(zone: ZoneID, scope: DatabaseScope)
    case loadShares(job: Int)
    /// Invites a user to a share (or changes their permission); nil `permission` removes them.
    case changeParticipant(job: Int, url: String, user: String, permission: SharePermission?)
    case loadShareStatus(RecordID, scope: DatabaseScope)
    /// Acts as another user (or no user) from now on.
    case actAs(Caller)
    /// Polls the fault plan every ``FaultsTabState/pollInterval`` until cancelled.
    case watchFaults(job: Int, afterEventID: Int64?)
    case addFault(job: Int, Fault)
    /// Removes one fault (nil: all).
    case removeFaults(job: Int, id: Int64?)
    case compactHistory(job: Int, zone: ZoneID, scope: DatabaseScope, before: String?, keep: Int?)
    /// Where the zone's history starts (its oldest valid token), and how its changes spread
    /// over time, for the Changes tab's line.
    case loadOldestToken(zone: ZoneID, scope: DatabaseScope)
    /// Writes the current result to `path` (JSON lines, or CSV for `.csv`).
    case exportResult(job: Int, ResultExport, path: String)
    /// Counts the records `request` matches (the whole result, without fields).
    case countMatches(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Walks the result of `request` after its first page (without fields), for the match
    /// count and the cursors of its pages.
    case mapResult(job: Int, request: QueryRequest, after: String, firstPageCount: Int, zone: ZoneID, scope: DatabaseScope)
    /// The result's last page, read from its end.
    case loadTail(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Deletes every record `request` matches, in batches of 400, until cancelled.
    case bulkDelete(job: Int, request: QueryRequest, zone: ZoneID, scope: DatabaseScope)
    /// Undoes (or redoes) a change this dashboard made.
    case undo(job: Int, UndoEntry, redo: Bool)
    /// Reads `field` over the result of `request` (up to ``ValueHistogram/sampleLimit`` records).
    case loadHistogram(job: Int, request: QueryRequest, field: String, zone: ZoneID, scope: DatabaseScope)

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
