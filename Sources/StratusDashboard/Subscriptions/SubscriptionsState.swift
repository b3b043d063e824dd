import Foundation
import StratusEngine
import StratusCloud
import StratusModel

/// The Subscriptions tab: the database's subscriptions above, the live notifications below.
public struct SubscriptionsTabState: Sendable {
    public enum Focus: Hashable, Sendable { case subscriptions, notifications }

    public var subscriptions: [Subscription] = []
    public var loaded = false
    public var list = ListCursor()
    public var focus: Focus = .subscriptions
    /// Notifications received, oldest first (the newest ``maximumKept``).
    public var notifications: [CloudNotification] = []
    public var notificationList = ListCursor()
    /// Notifications received since the panel opened, including any no longer kept.
    public var notificationCount = 0
    /// The background poll of `notifications(afterSequence:)`, while it runs.
    public var watchJob: Int?
    /// The last notification seen, where the next poll starts.
    public var lastSequence: Int64 = 0
    public var watchError: String?

    public static let maximumKept = 500
    /// How often the panel asks the store for new notifications.
    public static let pollInterval: Duration = .milliseconds(250)

    public init() {}

    /// Adds notifications that arrived, keeping the newest, and follows the newest when the
    /// selection was on the last row.
    public mutating func receive(_ arrived: [CloudNotification], visible: Int) {
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
public struct SubscriptionDraft: Sendable {
    public enum Row: Int, CaseIterable, Hashable, Sendable {
        case kind, recordType, predicate, firesOn, once, desiredKeys, zone, subscriptionID

        public var label: String {
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

    public var kind: SubscriptionType = .query
    public var recordType: String?
    public var predicate = "TRUEPREDICATE"
    public var arguments: [String] = []
    public var firesOn: QuerySubscriptionOptions = .firesOnAnyChange
    public var once = false
    public var desiredKeys: [String] = []
    /// nil: every zone (query, database); zone subscriptions need one.
    public var zone: String?
    /// Empty: a UUID.
    public var subscriptionID = ""
    public var list = ListCursor()
    public var savingJob: Int?
    public var error: String?

    public init(recordType: String?, zone: String?) {
        self.recordType = recordType
        self.zone = zone
    }

    /// The rows that apply to the kind.
    public var rows: [Row] {
        switch kind {
        case .query: return Row.allCases
        case .recordZone, .database: return [.kind, .recordType, .zone, .subscriptionID].filter { kind == .recordZone || $0 != .zone }
        }
    }

    public func value(_ row: Row) -> String {
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
public enum SubscriptionText {
    public static func firesOn(_ options: QuerySubscriptionOptions) -> String {
        var parts: [String] = []
        if options.contains(.firesOnRecordCreation) { parts.append("create") }
        if options.contains(.firesOnRecordUpdate) { parts.append("update") }
        if options.contains(.firesOnRecordDeletion) { parts.append("delete") }
        if options.contains(.firesOnce) { parts.append("once") }
        return parts.isEmpty ? "—" : parts.joined(separator: ",")
    }

    public static func predicate(_ subscription: Subscription) -> String {
        if case .query(_, let format, _, _, _) = subscription.kind { return format }
        return "—"
    }

    public static func zone(_ subscription: Subscription) -> String {
        subscription.zoneID?.zoneName ?? "(all)"
    }

    public static func reason(_ notification: CloudNotification) -> String {
        switch notification.queryNotificationReason {
        case .recordCreated?: return "created"
        case .recordUpdated?: return "updated"
        case .recordDeleted?: return "deleted"
        case nil: return notification.notificationType.name
        }
    }

    public static func fields(_ notification: CloudNotification) -> String {
        notification.recordFields.keys.sorted().map { "\($0)=\(ValueText.display(notification.recordFields[$0]))" }
            .joined(separator: " ")
    }

    public static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
