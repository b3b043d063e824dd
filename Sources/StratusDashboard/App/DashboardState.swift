import Foundation
import StratusEngine
import StratusModel
import StratusTerminal
import StratusCloud

/// The tabs, in the order of their number keys.
enum DashboardTab: Int, CaseIterable, Hashable, Sendable {
    case query = 1, fetch, changes, zones, schema, subscriptions, sharing, logs, faults

    var title: String {
        switch self {
        case .query: return "Query"
        case .fetch: return "Fetch"
        case .changes: return "Changes"
        case .zones: return "Zones"
        case .schema: return "Schema"
        case .subscriptions: return "Subscriptions"
        case .sharing: return "Sharing"
        case .logs: return "Logs"
        case .faults: return "Faults"
        }
    }

    /// The title when the full ones do not fit in the tab bar.
    var shortTitle: String { self == .subscriptions ? "Subs" : title }
}

/// A status-line message.
public struct StatusMessage: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, success, error }
    public var text: String
    public var kind: Kind
    /// The message belongs to one action: the next success (a query's results, a record
    /// opened) ends it. Every error does; so does a note about how a result was chosen.
    var endsAtNextSuccess: Bool

    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
        endsAtNextSuccess = kind == .error
    }

    /// A note about the result it came with: it ends with the next success.
    static func note(_ text: String) -> StatusMessage {
        var message = StatusMessage(text)
        message.endsAtNextSuccess = true
        return message
    }

    /// A CloudKit error as the status line shows it: name, code, message.
    static func error(_ error: CloudKitError) -> StatusMessage {
        StatusMessage(error.description, kind: .error)
    }
}

/// Work running in the background, shown with a spinner and cancellable with Esc.
public struct JobInfo: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case zones, schema, recordCounts, query, fetch, changes, databaseChanges, token, save, delete, loadRecord
        case subscriptions, saveSubscription, deleteSubscription, exportSchema, saveZone, deleteZone, users, shares, shareChange, faults, compact, export, bulkDelete, undo, histogram
    }
    var id: Int
    var kind: Kind
    var label: String
}

/// Selection and scroll of a list: the selected index and the first visible row.
public struct ListCursor: Hashable, Sendable {
    public var selected = 0
    var offset = 0

    init(selected: Int = 0, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Keeps the selection inside `count` items and visible in `visible` rows.
    mutating func clamp(count: Int, visible: Int) {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
        let rows = max(1, visible)
        if selected < offset { offset = selected }
        if selected >= offset + rows { offset = selected - rows + 1 }
        offset = max(0, min(offset, max(0, count - rows)))
    }

    mutating func move(by delta: Int, count: Int, visible: Int) {
        selected += delta
        clamp(count: count, visible: visible)
    }

    mutating func move(to index: Int, count: Int, visible: Int) {
        selected = index
        clamp(count: count, visible: visible)
    }
}

/// A saved change token.
struct TokenBookmark: Hashable, Sendable, Codable {
    var label: String
    var scope: String
    var zone: String
    var token: String

    init(label: String, scope: String, zone: String, token: String) {
        self.label = label
        self.scope = scope
        self.zone = zone
        self.token = token
    }
}

/// What the dashboard keeps between runs, in a small JSON file next to the store.
public struct DashboardPreferences: Hashable, Sendable, Codable {
    /// Recent filters by record type, newest first.
    var recentFilters: [String: [RecentFilter]] = [:]
    var bookmarks: [TokenBookmark] = []
    /// The user the dashboard acts as on this store (a user record name, or `none`); nil for
    /// the store's owner.
    public var actingUser: String?

    init(recentFilters: [String: [RecentFilter]] = [:], bookmarks: [TokenBookmark] = []) {
        self.recentFilters = recentFilters
        self.bookmarks = bookmarks
    }

    static let recentLimit = 10

    /// Puts a filter and its arguments first in the type's recent list (once).
    mutating func remember(filter: String, arguments: [String] = [], for recordType: String) {
        let trimmed = filter.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let entry = RecentFilter(text: trimmed, arguments: arguments)
        var list = recentFilters[recordType] ?? []
        list.removeAll { $0 == entry }
        list.insert(entry, at: 0)
        recentFilters[recordType] = Array(list.prefix(DashboardPreferences.recentLimit))
    }
}

/// Everything the dashboard shows: a value, changed only by ``Dashboard/update(_:_:)``.
public struct DashboardState: Sendable {
    var storeName: String
    /// The store can only be read: the header says so on every tab.
    var storeIsReadOnly = false
    var storePath: String
    var environment: StoreEnvironment = .development
    var scope: DatabaseScope
    var zone: ZoneID
    /// No zone was named (the dashboard opened without `--zone`, or switched database or user):
    /// when the zones arrive, the busiest one is shown if this one holds nothing.
    public var settlesOnBusiestZone = false
    var zones: [RecordZone] = []
    var recordTypes: [RecordTypeSchema] = []
    var schemaLoaded = false
    var tab: DashboardTab = .query
    public var size: Size

    public internal(set) var query = QueryTabState()
    var fetch = FetchTabState()
    var changes = ChangesTabState()
    var zonesTab = ZonesTabState()
    var schemaTab = SchemaTabState()
    var subscriptions = SubscriptionsTabState()
    var sharing = SharingTabState()
    var logs = LogsTabState()
    var faults = FaultsTabState()
    /// This session's saves and deletes, for undo (`U`) and redo (`R`).
    var undo = UndoStack()

    /// Dialogs and drill-ins, the last on top; the top one gets the keys.
    var modals: [Modal] = []
    public var status: StatusMessage?
    public internal(set) var jobs: [JobInfo] = []
    var nextJobID = 1
    var spinnerFrame = 0
    /// Last `/` search, for `n`.
    var lastSearch: String?

    public var theme: Theme = .builtInDefault
    public var themeNames: [String] = []
    public var preferences = DashboardPreferences()
    var wantsQuit = false
    /// Ctrl-Z: the loop suspends the process, then the dashboard draws again.
    var wantsSuspend = false
    /// The Core Data / SwiftData lens, as `L` set it; nil: on in Core Data's own zone only.
    var coreDataLens: Bool?
    /// Who acts (CloudKit Console's Act As); nil for the store's owner.
    public var acting: Caller?
    /// The store's users, for the Act As picker and the breadcrumb.
    var users: [StoreUser] = []
    /// The remote container the dashboard is on (`--remote`); nil on a local store.
    public var remote: RemoteContainer?
    /// The server throttled a call: whole seconds left before it is sent again (nil: none).
    var throttleSecondsLeft: Int?

    public init(storePath: String, scope: DatabaseScope = .private, zone: ZoneID = .default,
                recordType: String? = nil, size: Size = Size(width: 80, height: 24)) {
        self.storePath = storePath
        self.storeName = (storePath as NSString).lastPathComponent
        self.scope = scope
        self.zone = zone
        self.size = size
        self.query.recordType = recordType
    }

    /// The schema of the Query tab's record type.
    var currentSchema: RecordTypeSchema? {
        guard let name = query.recordType else { return nil }
        return recordTypes.first { $0.name == name }
    }

    func schema(named name: String) -> RecordTypeSchema? {
        recordTypes.first { $0.name == name }
    }

    /// Who acts, as the breadcrumb says it: an alias, `no user`, or `owner` before the users load.
    var actingLabel: String {
        switch acting {
        case nil: return users.first(where: \.isOwner)?.alias ?? "owner"
        case .anonymous?: return "no user"
        case .user(let name)?: return users.first { $0.recordName == name }?.alias ?? name
        }
    }

    /// Whether the inspector shows mirrored records as the Core Data objects they stand for.
    var coreDataLensActive: Bool { coreDataLens ?? CoreDataLens.isMirroredZone(zone) }

    /// Whether someone other than the store's owner acts (the breadcrumb then says who).
    var actsAsOther: Bool {
        switch acting {
        case nil: return false
        case .anonymous?: return true
        case .user(let name)?: return !(users.first { $0.recordName == name }?.isOwner ?? false)
        }
    }

    /// Record types a user picks from (the system `Users` type left out).
    var pickableTypes: [RecordTypeSchema] { recordTypes.filter { $0.name != "Users" } }

    var isBusy: Bool { !jobs.isEmpty }

    /// An action succeeded: the message of an earlier one that failed (or of an earlier
    /// result) ends here, unless the success says something itself.
    mutating func succeeded() {
        if status?.endsAtNextSuccess == true { status = nil }
    }

    func job(_ id: Int) -> JobInfo? { jobs.first { $0.id == id } }

    var topModal: Modal? {
        get { modals.last }
        set {
            guard !modals.isEmpty else {
                if let newValue { modals.append(newValue) }
                return
            }
            if let newValue { modals[modals.count - 1] = newValue } else { modals.removeLast() }
        }
    }
}
