import Foundation
import StratusModel
import StratusCloud

/// A notification a subscription made, as `CKNotification` and its subclasses
/// (`CKQueryNotification`, `CKRecordZoneNotification`, `CKDatabaseNotification`) describe one.
///
/// Notifications are written in the same transaction as the change that caused them, numbered
/// in commit order (`sequence`), and kept until deleted with their database.
public struct CloudNotification: Hashable, Sendable {
    /// `CKNotification.NotificationType`, with CloudKit's raw values.
    public enum NotificationType: Int, Hashable, Sendable {
        case query = 1
        case recordZone = 2
        case readNotification = 3
        case database = 4

        public var name: String {
            switch self {
            case .query: return "query"
            case .recordZone: return "zone"
            case .readNotification: return "readNotification"
            case .database: return "database"
            }
        }
    }

    /// `CKQueryNotification.Reason`, with CloudKit's raw values.
    public enum Reason: Int, Hashable, Sendable {
        case recordCreated = 1
        case recordUpdated = 2
        case recordDeleted = 3

        public var name: String {
            switch self {
            case .recordCreated: return "recordCreated"
            case .recordUpdated: return "recordUpdated"
            case .recordDeleted: return "recordDeleted"
            }
        }
    }

    /// `CKNotification.ID`: unique in the store.
    public var notificationID: String
    /// The position in the store's notification order (larger is later).
    public var sequence: Int64
    public var notificationType: NotificationType
    public var subscriptionID: String
    public var databaseScope: DatabaseScope
    /// Query notifications: why the subscription fired.
    public var queryNotificationReason: Reason?
    /// Query notifications: the record.
    public var recordID: RecordID?
    public var recordType: String?
    /// Query notifications: the values of the subscription's desired keys the record has.
    public var recordFields: [String: FieldValue]
    /// Zone notifications: the zone that changed.
    public var recordZoneID: ZoneID?
    /// When the change was committed.
    public var date: Date
    /// The device that made the change; it is never delivered there.
    public var originatingDevice: String
    /// Whether `markNotificationsRead` marked it.
    public var isRead: Bool
    /// From the subscription's notification info.
    public var alertBody: String?
    public var title: String?
    public var subtitle: String?
    public var category: String?

    /// Every stored property: a storage backend makes these from its rows.
    package init(notificationID: String, sequence: Int64, notificationType: NotificationType, subscriptionID: String, databaseScope: DatabaseScope, queryNotificationReason: Reason? = nil, recordID: RecordID? = nil, recordType: String? = nil, recordFields: [String: FieldValue], recordZoneID: ZoneID? = nil, date: Date, originatingDevice: String, isRead: Bool, alertBody: String? = nil, title: String? = nil, subtitle: String? = nil, category: String? = nil) {
        self.notificationID = notificationID
        self.sequence = sequence
        self.notificationType = notificationType
        self.subscriptionID = subscriptionID
        self.databaseScope = databaseScope
        self.queryNotificationReason = queryNotificationReason
        self.recordID = recordID
        self.recordType = recordType
        self.recordFields = recordFields
        self.recordZoneID = recordZoneID
        self.date = date
        self.originatingDevice = originatingDevice
        self.isRead = isRead
        self.alertBody = alertBody
        self.title = title
        self.subtitle = subtitle
        self.category = category
    }
}
