import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// The APNs payload a notification would be pushed with: `aps` for the alert and background
/// flag, and CloudKit's own `ck` dictionary (`qry` for query notifications, `fet` for zone ones,
/// `met` for database ones), as `CKNotification(fromRemoteNotificationDictionary:)` reads it.
///
/// There is no push service here, so the server keeps these in an outbox that clients and
/// people read instead.
public enum PushPayload {
    /// `dbs` as pushes carry it: 0 public, 1 private, 2 shared (a captured private-database push
    /// carried 1).
    static func databaseCode(_ scope: DatabaseScope) -> Int64 {
        switch scope {
        case .public: return 0
        case .private: return 1
        case .shared: return 2
        }
    }

    public static func json(for notification: CloudNotification, container: String, owner: String) -> JSONValue {
        var aps: [(String, JSONValue)] = []
        if let body = notification.alertBody {
            var alert: [(String, JSONValue)] = [("body", .string(body))]
            if let title = notification.title { alert.append(("title", .string(title))) }
            if let subtitle = notification.subtitle { alert.append(("subtitle", .string(subtitle))) }
            aps.append(("alert", .object(alert)))
        }
        if let category = notification.category { aps.append(("category", .string(category))) }
        aps.append(("content-available", .integer(1)))
        var ck: [(String, JSONValue)] = [("ce", .integer(2)), ("cid", .string(container)), ("nid", .string(notification.notificationID))]
        let zoneOwner = { (zoneID: ZoneID) -> String in zoneID.ownerName == ZoneID.defaultOwnerName ? owner : zoneID.ownerName }
        switch notification.notificationType {
        case .query:
            var query: [(String, JSONValue)] = [("dbs", .integer(databaseCode(notification.databaseScope)))]
            if let reason = notification.queryNotificationReason { query.append(("fo", .integer(Int64(reason.rawValue)))) }
            if let recordID = notification.recordID {
                query.append(("rid", .string(recordID.recordName)))
                query.append(("zid", .string(recordID.zoneID.zoneName)))
                query.append(("zoid", .string(zoneOwner(recordID.zoneID))))
            }
            query.append(("sid", .string(notification.subscriptionID)))
            if !notification.recordFields.isEmpty {
                query.append(("af", .object(notification.recordFields.keys.sorted().map { ($0, RecordJSON.encodeValue(notification.recordFields[$0]!)) })))
            }
            ck.append(("qry", .object(query)))
        case .recordZone:
            var zone: [(String, JSONValue)] = [("dbs", .integer(databaseCode(notification.databaseScope)))]
            if let zoneID = notification.recordZoneID {
                zone.append(("zid", .string(zoneID.zoneName)))
                zone.append(("zoid", .string(zoneOwner(zoneID))))
            }
            zone.append(("sid", .string(notification.subscriptionID)))
            ck.append(("fet", .object(zone)))
        case .database, .readNotification:
            ck.append(("met", .object([("dbs", .integer(databaseCode(notification.databaseScope))), ("sid", .string(notification.subscriptionID))])))
        }
        return .object([("aps", .object(aps)), ("ck", .object(ck))])
    }
}
