import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusPredicates

/// Subscriptions and their notifications in a memory store's tables.
struct MemorySubscriptionStorage: SubscriptionStorage {
    let db: MemoryTransaction

    func all(scope: DatabaseScope, owner: String?) throws -> [SubscriptionRow] {
        let chosen = db.tables.subscriptions.values.filter { $0.scope == scope && (owner == nil || $0.owner == owner) }
        if owner != nil { return chosen.sorted { $0.subscription.subscriptionID < $1.subscription.subscriptionID }.map(\.row) }
        return chosen.sorted { $0.id < $1.id }.map(\.row)
    }

    func everyScope() throws -> [SubscriptionRow] { db.tables.subscriptions.values.sorted { $0.id < $1.id }.map(\.row) }

    func find(_ subscriptionID: String, scope: DatabaseScope, owner: String) throws -> SubscriptionRow? {
        stored(subscriptionID, scope: scope, owner: owner)?.row
    }

    /// Inserts or replaces the subscription with this ID (a replaced one gets a new row id, as
    /// SQLite's `INSERT OR REPLACE` gives it).
    func save(_ subscription: Subscription, scope: DatabaseScope, owner: String) throws {
        if let old = stored(subscription.subscriptionID, scope: scope, owner: owner) { db.tables.subscriptions[old.id] = nil }
        db.tables.lastSubscriptionID += 1
        let id = db.tables.lastSubscriptionID
        db.tables.subscriptions[id] = MemoryTables.Subscription(id: id, scope: scope, owner: owner, subscription: subscription)
        db.tables.subscriptionVersion += 1
    }

    func state() throws -> (version: Int64, count: Int64)? {
        (db.tables.subscriptionVersion, Int64(db.tables.subscriptions.count))
    }

    func delete(rowID: Int64) throws {
        db.tables.subscriptions[rowID] = nil
        db.tables.subscriptionVersion += 1
    }

    func fetchNotifications(scope: DatabaseScope, owner: String, after sequence: Int64, excludingDevice: String?, unreadOnly: Bool,
                            limit: Int) throws -> [CloudNotification] {
        let chosen = db.tables.notifications.lazy.filter { stored in
            stored.owner == owner && stored.notification.databaseScope == scope && stored.notification.sequence > sequence
                && (excludingDevice == nil || stored.originDevice != excludingDevice) && (!unreadOnly || !stored.notification.isRead)
        }
        return Array(chosen.prefix(limit).map(\.notification))
    }

    func insertNotification(id: String, scope: DatabaseScope, owner: String, subscriptionID: String, type: CloudNotification.NotificationType,
                            reason: CloudNotification.Reason?, zoneID: ZoneID?, recordName: String?, recordType: String?,
                            fields: [String: FieldValue], display: String?, createdAt: Int64, originDevice: String) throws {
        db.tables.lastNotificationSequence += 1
        let info = NotificationDisplay.decode(display)
        let notification = CloudNotification(
            notificationID: id, sequence: db.tables.lastNotificationSequence, notificationType: type, subscriptionID: subscriptionID,
            databaseScope: scope, queryNotificationReason: reason, recordID: recordName.map { RecordID(recordName: $0, zoneID: zoneID ?? .default) },
            recordType: recordType, recordFields: fields, recordZoneID: type == .recordZone || type == .query ? zoneID : nil,
            date: FieldValue.date(milliseconds: createdAt), originatingDevice: originDevice, isRead: false,
            alertBody: info["alertBody"], title: info["title"], subtitle: info["subtitle"], category: info["category"])
        db.tables.notifications.append(MemoryTables.Notification(owner: owner, originDevice: originDevice, notification: notification))
    }

    func markNotificationsRead(_ notificationIDs: [String], owner: String) throws {
        let wanted = Set(notificationIDs)
        for index in db.tables.notifications.indices
        where db.tables.notifications[index].owner == owner && wanted.contains(db.tables.notifications[index].notification.notificationID) {
            db.tables.notifications[index].notification.isRead = true
        }
    }

    func notificationSequence(of notificationID: String) throws -> Int64? {
        db.tables.notifications.first { $0.notification.notificationID == notificationID }?.notification.sequence
    }

    private func stored(_ subscriptionID: String, scope: DatabaseScope, owner: String) -> MemoryTables.Subscription? {
        db.tables.subscriptions.values.first { $0.scope == scope && $0.owner == owner && $0.subscription.subscriptionID == subscriptionID }
    }
}
