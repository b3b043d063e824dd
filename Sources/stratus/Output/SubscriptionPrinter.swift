import Foundation
import StratusEngine
import StratusPredicates

/// Subscriptions and notifications as JSON (Web Services names) and as lines for people.
enum SubscriptionPrinter {
    static func json(_ subscription: Subscription) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("subscriptionID", .string(subscription.subscriptionID)),
            ("subscriptionType", .string(subscription.subscriptionType.name)),
        ]
        if let recordType = subscription.recordType { members.append(("recordType", .string(recordType))) }
        if let zoneID = subscription.zoneID {
            members.append(("zoneID", .object([("zoneName", .string(zoneID.zoneName)), ("ownerRecordName", .string(zoneID.ownerName))])))
        }
        if case .query(_, let format, let arguments, let options, _) = subscription.kind {
            var query: [(String, JSONValue)] = [("filter", .string(format))]
            if !arguments.isEmpty { query.append(("arguments", .array(arguments.map(argument)))) }
            members.append(("query", .object(query)))
            members.append(("firesOn", .array(firesOn(options).map { .string($0) })))
            members.append(("firesOnce", .bool(options.contains(.firesOnce))))
        }
        if let info = subscription.notificationInfo {
            var fields: [(String, JSONValue)] = []
            if let keys = info.desiredKeys { fields.append(("desiredKeys", .array(keys.map { .string($0) }))) }
            if let text = info.alertBody { fields.append(("alertBody", .string(text))) }
            if let text = info.title { fields.append(("title", .string(text))) }
            if let text = info.category { fields.append(("category", .string(text))) }
            fields.append(("shouldSendContentAvailable", .bool(info.shouldSendContentAvailable)))
            members.append(("notificationInfo", .object(fields)))
        }
        return .object(members)
    }

    static func line(_ subscription: Subscription) -> String {
        var parts = [subscription.subscriptionID, subscription.subscriptionType.name]
        if let recordType = subscription.recordType { parts.append("type \(recordType)") }
        if let zoneID = subscription.zoneID { parts.append("zone \(zoneID.zoneName)") }
        if case .query(_, let format, _, let options, _) = subscription.kind {
            parts.append("filter \(format)")
            parts.append("on " + firesOn(options).joined(separator: ","))
            if options.contains(.firesOnce) { parts.append("once") }
        }
        if let keys = subscription.notificationInfo?.desiredKeys, !keys.isEmpty { parts.append("keys " + keys.joined(separator: ",")) }
        return parts.joined(separator: "  ")
    }

    static func firesOn(_ options: QuerySubscriptionOptions) -> [String] {
        var names: [String] = []
        if options.contains(.firesOnRecordCreation) { names.append("create") }
        if options.contains(.firesOnRecordUpdate) { names.append("update") }
        if options.contains(.firesOnRecordDeletion) { names.append("delete") }
        return names
    }

    private static func argument(_ argument: PredicateArgument) -> JSONValue {
        switch argument {
        case .key(let name): return .object([("key", .string(name))])
        case .value(let value): return RecordJSON.encodeField(value)
        }
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
