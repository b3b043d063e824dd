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

    case zonesLoaded(job: Int, scope: DatabaseScope, Result<[RecordZone], CloudKitError>)
    /// Records per type in the zone, for the record type the Query tab starts with.
    case recordCountsLoaded(job: Int, Result<[String: Int], CloudKitError>)
    case schemaLoaded(job: Int, Result<SchemaSnapshot, CloudKitError>)
    /// A zone was made or deleted; the result is the database's zones after it.
    case zoneSaved(job: Int, ZoneID, Result<[RecordZone], CloudKitError>)
    case zoneDeleted(job: Int, ZoneID, Result<[RecordZone], CloudKitError>)
    /// A page of the Query tab's results: `page` is its index, nil for the first page of a
    /// fresh run.
    case queryPage(job: Int, Result<QueryResultsPage, CloudKitError>, page: Int?, milliseconds: Int)
    case filterChecked(generation: Int, FilterCheck)
    case fetchProgress(job: Int, done: Int, total: Int)
    case fetchFinished(job: Int, Result<[FetchRow], CloudKitError>, milliseconds: Int)
    /// One or more pages of a playback: `count` events (the list gets `events`, which stops
    /// growing past what the tab keeps), `pages` pages, and the token after the last.
    case changesPage(job: Int, events: [ChangeEvent], count: Int, pages: Int, token: String, moreComing: Bool, elapsed: Double)
    case changesFailed(job: Int, CloudKitError)
    case databaseChanges(job: Int, Result<DatabaseChangesSummary, CloudKitError>)
    case tokenTaken(job: Int, Result<String, CloudKitError>, database: Bool)
    case recordLoaded(job: Int, Result<Record, CloudKitError>, purpose: RecordLoadPurpose)
    case saveFinished(job: Int, Result<Record, CloudKitError>, isNew: Bool)
    case deleteFinished(job: Int, Result<[RecordID], CloudKitError>, recordID: RecordID)
    case themeLoaded(name: String, Result<Theme, ThemeError>)
    case subscriptionsLoaded(job: Int, Result<[Subscription], CloudKitError>)
    case subscriptionSaved(job: Int, Result<Subscription, CloudKitError>)
    case subscriptionDeleted(job: Int, Result<String, CloudKitError>)
    /// New notifications from the panel's poll (`catchUp`: the ones that were there before it started).
    case notificationsArrived(job: Int, [CloudNotification], catchUp: Bool)
    case notificationsFailed(job: Int, CloudKitError)
    case schemaExported(job: Int, Result<String, CloudKitError>)
    case schemaDiffed(job: Int, Result<SchemaDiffSnapshot, CloudKitError>)
    case usersLoaded(job: Int, Result<[StoreUser], CloudKitError>)
    /// Requests the server logged since the last poll.
    case requestsLogged(job: Int, Result<[RequestLogEntry], CloudKitError>)
    /// Records per type of a zone, for the Zones tab's bars.
    case zoneTypeCountsLoaded(ZoneID, scope: DatabaseScope, Result<[String: Int], CloudKitError>)
    /// The shares the acting user owns and accepted (`done`: what a change just did).
    case sharesLoaded(job: Int, Result<SharesSnapshot, CloudKitError>, done: String?)
    /// Where a record stands with sharing, for its inspector (nil: in no share).
    case shareStatusLoaded(RecordID, String?)
    /// The fault plan and the firings since the last poll.
    case faultsPolled(job: Int, Result<FaultsSnapshot, CloudKitError>)
    /// A fault was added or removed (what it did, for the status line).
    case faultsChanged(job: Int, Result<String, CloudKitError>)
    case historyCompacted(job: Int, Result<HistoryCompaction, CloudKitError>)
    /// Records written by an export so far (`total` when known).
    case exportProgress(job: Int, written: Int, total: Int?)
    case exportFinished(job: Int, Result<ExportSummary, CloudKitError>)
    case matchesCounting(job: Int, countedSoFar: Int)
    /// The Query tab's result walked: records so far, and at the end every page's cursor and size.
    case resultMapping(job: Int, countedSoFar: Int)
    case tailLoaded(job: Int, Result<[Record], CloudKitError>)
    case resultMapped(job: Int, Result<[ResultPage], CloudKitError>)
    case matchesCounted(job: Int, Result<Int, CloudKitError>)
    /// A batch of a bulk delete went: how many so far, and the records of the batch (for undo).
    case bulkDeleteProgress(job: Int, deleted: Int, records: [Record])
    /// A change this dashboard made, for undo.
    case undoable(UndoEntry)
    case undoFinished(job: Int, redo: Bool, Result<(UndoEntry, String), CloudKitError>)
    case bulkDeleteFinished(job: Int, Result<Int, CloudKitError>)
    /// A bulk delete stopped by Esc, once the batch under way when Esc came has ended: how many
    /// records it deleted in all.
    case bulkDeleteStopped(job: Int, deleted: Int)
    /// The zone's oldest token that still plays back, and whether the history was compacted.
    case oldestTokenLoaded(ZoneID, Result<(token: String, compacted: Bool), CloudKitError>)
    case activityLoaded(ZoneID, Result<[Int], CloudKitError>)
    case histogramLoaded(job: Int, Result<ValueHistogram, CloudKitError>)
    case jobEnded(job: Int)
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
