import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS
import StratusPredicates

/// Subscriptions as lines for people, and notifications as JSON (Web Services names) and lines.
enum SubscriptionPrinter {
    static func line(_ subscription: Subscription) -> String {
        var parts = [subscription.subscriptionID, subscription.subscriptionType.name]
        if let recordType = subscription.recordType { parts.append("type \(recordType)") }
        if let zoneID = subscription.zoneID { parts.append("zone \(zoneID.zoneName)") }
        if case .query(_, let format, _, let options, _) = subscription.kind {
            parts.append("filter \(format)")
            parts.append("on " + SubscriptionJSON.firesOn(options).joined(separator: ","))
            if options.contains(.firesOnce) { parts.append("once") }
        }
        if let keys = subscription.notificationInfo?.desiredKeys, !keys.isEmpty { parts.append("keys " + keys.joined(separator: ",")) }
        return parts.joined(separator: "  ")
    }

    // MARK: - Notifications

    /// A notification as `notifications --json` prints it, with the push `payload` it would have
    /// been sent with (`ck.cid` names no container: a store is one, and `local` stands for it).
    static func json(_ notification: CloudNotification, owner: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(notification.notificationID)),
            ("sequence", .integer(notification.sequence)),
            ("notificationType", .string(notification.notificationType.name)),
            ("reason", notification.queryNotificationReason.map { .string($0.name) } ?? .null),
            ("recordName", notification.recordID.map { .string($0.recordName) } ?? .null),
            ("recordType", notification.recordType.map { .string($0) } ?? .null),
            ("zoneName", notification.recordZoneID.map { .string($0.zoneName) } ?? .null),
            ("subscriptionID", .string(notification.subscriptionID)),
            ("databaseScope", .string(notification.databaseScope.name)),
            ("fields", .object(notification.recordFields.keys.sorted().map { ($0, RecordJSON.encodeField(notification.recordFields[$0]!)) })),
            ("date", .string(ISO8601.string(notification.date))),
            ("isRead", .bool(notification.isRead)),
        ]
        if let text = notification.alertBody { members.append(("alertBody", .string(text))) }
        if let text = notification.title { members.append(("title", .string(text))) }
        if let text = notification.category { members.append(("category", .string(text))) }
        members.append(("payload", PushPayload.json(for: notification, container: "local", owner: owner)))
        return .object(members)
    }

    static func line(_ notification: CloudNotification) -> String {
        var parts = [ISO8601.string(notification.date), notification.notificationType.name]
        if let reason = notification.queryNotificationReason { parts.append(reason.name) }
        if let recordID = notification.recordID { parts.append("\(notification.recordType ?? "?") \(recordID.recordName)") }
        if notification.notificationType == .recordZone, let zoneID = notification.recordZoneID { parts.append("zone \(zoneID.zoneName)") }
        parts.append("subscription \(notification.subscriptionID)")
        for key in notification.recordFields.keys.sorted() {
            parts.append("\(key)=\(RecordPrinter.format(notification.recordFields[key]!))")
        }
        if notification.isRead { parts.append("(read)") }
        parts.append("id \(notification.notificationID)")
        return parts.joined(separator: "  ")
    }
}
