import Foundation
import StratusEngine
import StratusCloud
import StratusModel

/// The Subscriptions tab: the database's subscriptions above, the live notifications below.
struct SubscriptionsTabState: Sendable {
    enum Focus: Hashable, Sendable { case subscriptions, notifications }

    var subscriptions: [Subscription] = []
    var loaded = false
    var list = ListCursor()
    var focus: Focus = .subscriptions
    /// Notifications received, oldest first (the newest ``maximumKept``).
    var notifications: [CloudNotification] = []
    var notificationList = ListCursor()
    /// Notifications received since the panel opened, including any no longer kept.
    var notificationCount = 0
    /// The background poll of `notifications(afterSequence:)`, while it runs.
    var watchJob: Int?
    /// The last notification seen, where the next poll starts.
    var lastSequence: Int64 = 0
    var watchError: String?

    static let maximumKept = 500
    /// How often the panel asks the store for new notifications.
    static let pollInterval: Duration = .milliseconds(250)

    init() {}

    /// Adds notifications that arrived, keeping the newest, and follows the newest when the
    /// selection was on the last row.
    mutating func receive(_ arrived: [CloudNotification], visible: Int) {
        guard !arrived.isEmpty else { return }
        let followed = notifications.isEmpty || notificationList.selected >= notifications.count - 1
        notifications += arrived
        notificationCount += arrived.count
        if notifications.count > SubscriptionsTabState.maximumKept {
            let dropped = notifications.count - SubscriptionsTabState.maximumKept
            notifications.removeFirst(dropped)
            notificationList.selected = max(0, notificationList.selected - dropped)
        }
        lastSequence = max(lastSequence, arrived.map(\.sequence).max() ?? lastSequence)
        if followed {
            notificationList.move(to: notifications.count - 1, count: notifications.count, visible: visible)
        } else {
            notificationList.clamp(count: notifications.count, visible: visible)
        }
    }
}

/// A subscription being made: the rows of the create dialog.
struct SubscriptionDraft: Sendable {
    enum Row: Int, CaseIterable, Hashable, Sendable {
        case kind, recordType, predicate, firesOn, once, desiredKeys, zone, subscriptionID

        var label: String {
            switch self {
            case .kind: return "kind"
            case .recordType: return "record type"
            case .predicate: return "predicate"
            case .firesOn: return "fires on"
            case .once: return "fires once"
            case .desiredKeys: return "desired keys"
            case .zone: return "zone"
            case .subscriptionID: return "subscription ID"
            }
        }
    }

    var kind: SubscriptionType = .query
    var recordType: String?
    var predicate = "TRUEPREDICATE"
    var arguments: [String] = []
    var firesOn: QuerySubscriptionOptions = .firesOnAnyChange
    var once = false
    var desiredKeys: [String] = []
    /// nil: every zone (query, database); zone subscriptions need one.
    var zone: String?
    /// Empty: a UUID.
    var subscriptionID = ""
    var list = ListCursor()
    var savingJob: Int?
    var error: String?

    init(recordType: String?, zone: String?) {
        self.recordType = recordType
        self.zone = zone
    }

    /// The rows that apply to the kind.
    var rows: [Row] {
        switch kind {
        case .query: return Row.allCases
        case .recordZone, .database: return [.kind, .recordType, .zone, .subscriptionID].filter { kind == .recordZone || $0 != .zone }
        }
    }

    func value(_ row: Row) -> String {
        switch row {
        case .kind: return kind.name
        case .recordType: return recordType ?? (kind == .query ? "(choose one)" : "(any)")
        case .predicate: return predicate.isEmpty ? "TRUEPREDICATE" : predicate
        case .firesOn: return SubscriptionText.firesOn(firesOn)
        case .once: return once ? "yes (removed after it fires)" : "no"
        case .desiredKeys: return desiredKeys.isEmpty ? "(none)" : desiredKeys.joined(separator: ", ")
        case .zone: return zone ?? (kind == .recordZone ? "(choose one)" : "(every zone)")
        case .subscriptionID: return subscriptionID.isEmpty ? "(generated)" : subscriptionID
        }
    }
}

/// How subscriptions and notifications are written in the tab.
enum SubscriptionText {
    static func firesOn(_ options: QuerySubscriptionOptions) -> String {
        var parts: [String] = []
        if options.contains(.firesOnRecordCreation) { parts.append("create") }
        if options.contains(.firesOnRecordUpdate) { parts.append("update") }
        if options.contains(.firesOnRecordDeletion) { parts.append("delete") }
        if options.contains(.firesOnce) { parts.append("once") }
        return parts.isEmpty ? "—" : parts.joined(separator: ",")
    }

    static func predicate(_ subscription: Subscription) -> String {
        if case .query(_, let format, _, _, _) = subscription.kind { return format }
        return "—"
    }

    static func zone(_ subscription: Subscription) -> String {
        subscription.zoneID?.zoneName ?? "(all)"
    }

    static func reason(_ notification: CloudNotification) -> String {
        switch notification.queryNotificationReason {
        case .recordCreated?: return "created"
        case .recordUpdated?: return "updated"
        case .recordDeleted?: return "deleted"
        case nil: return notification.notificationType.name
        }
    }

    static func fields(_ notification: CloudNotification) -> String {
        notification.recordFields.keys.sorted().map { "\($0)=\(ValueText.display(notification.recordFields[$0]))" }
            .joined(separator: " ")
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
