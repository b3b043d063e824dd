import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusPredicates

/// Subscriptions and their notifications in a PostgreSQL store, in the SQLite store's columns.
struct PostgresSubscriptionStorage: SubscriptionStorage {
    let db: PostgresTransaction

    private static let columns = "id, scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info"
    private static let notificationColumns = """
        seq, id, scope, subscription_id, kind, reason, zone_name, zone_owner, record_name, record_type, fields, info, created_at, origin_device, read
        """

    func all(scope: DatabaseScope, owner: String?) throws -> [SubscriptionRow] {
        if let owner {
            return try db.link.rows("SELECT \(Self.columns) FROM subscription WHERE scope = $1 AND owner = $2 ORDER BY subscription_id",
                                    [scope.rawValue, owner]).map(Self.subscription)
        }
        return try db.link.rows("SELECT \(Self.columns) FROM subscription WHERE scope = $1 ORDER BY id", [scope.rawValue]).map(Self.subscription)
    }

    func everyScope() throws -> [SubscriptionRow] {
        try db.link.rows("SELECT \(Self.columns) FROM subscription ORDER BY id").map(Self.subscription)
    }

    func find(_ subscriptionID: String, scope: DatabaseScope, owner: String) throws -> SubscriptionRow? {
        try db.link.rows("SELECT \(Self.columns) FROM subscription WHERE scope = $1 AND owner = $2 AND subscription_id = $3",
                         [scope.rawValue, owner, subscriptionID]).first.map(Self.subscription)
    }

    /// A replaced subscription gets a new row id, as SQLite's `INSERT OR REPLACE` gives it.
    func save(_ subscription: Subscription, scope: DatabaseScope, owner: String) throws {
        let (predicate, arguments, options) = SubscriptionRow.queryColumns(of: subscription)
        try db.link.run("DELETE FROM subscription WHERE scope = $1 AND owner = $2 AND subscription_id = $3",
                        [scope.rawValue, owner, subscription.subscriptionID])
        try db.link.run("""
            INSERT INTO subscription
                (scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            """, [scope.rawValue, owner, subscription.subscriptionID, subscription.subscriptionType.rawValue, subscription.recordType,
                  subscription.zoneID?.zoneName, subscription.zoneID?.ownerName, predicate, arguments, options,
                  subscription.notificationInfo.map(SubscriptionRow.encodeInfo), FieldValue.milliseconds(Date())])
        try changed()
    }

    func state() throws -> (version: Int64, count: Int64)? {
        guard let row = try db.link.rows("SELECT version, count FROM subscription_state WHERE id = 1").first else { return nil }
        return (try row.int(0), try row.int(1))
    }

    func delete(rowID: Int64) throws {
        try db.link.run("DELETE FROM subscription WHERE id = $1", [rowID])
        try changed()
    }

    private func changed() throws {
        try db.link.run("UPDATE subscription_state SET version = version + 1, count = (SELECT count(*) FROM subscription) WHERE id = 1")
    }

    func fetchNotifications(scope: DatabaseScope, owner: String, after sequence: Int64, excludingDevice: String?, unreadOnly: Bool,
                            limit: Int) throws -> [CloudNotification] {
        try db.link.rows("""
            SELECT \(Self.notificationColumns) FROM notification
            WHERE scope = $1 AND owner = $2 AND seq > $3 AND ($4::text IS NULL OR origin_device <> $4) AND (NOT $5 OR NOT read)
            ORDER BY seq LIMIT $6
            """, [scope.rawValue, owner, sequence, excludingDevice, unreadOnly, limit]).map(Self.notification)
    }

    func insertNotification(id: String, scope: DatabaseScope, owner: String, subscriptionID: String, type: CloudNotification.NotificationType,
                            reason: CloudNotification.Reason?, zoneID: ZoneID?, recordName: String?, recordType: String?,
                            fields: [String: FieldValue], display: String?, createdAt: Int64, originDevice: String) throws {
        try db.link.run("""
            INSERT INTO notification (id, scope, owner, subscription_id, kind, reason, zone_name, zone_owner, record_name, record_type,
                                      fields, info, created_at, origin_device)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            """, [id, scope.rawValue, owner, subscriptionID, type.rawValue, reason?.rawValue, zoneID?.zoneName, zoneID?.ownerName, recordName,
                  recordType, fields.isEmpty ? nil : FieldCoder.encode(fields), display, createdAt, originDevice])
        db.announce(.notifications)
    }

    func markNotificationsRead(_ notificationIDs: [String], owner: String) throws {
        try db.link.run("UPDATE notification SET read = true WHERE id = ANY($1) AND owner = $2", [notificationIDs, owner])
    }

    func notificationSequence(of notificationID: String) throws -> Int64? {
        try db.link.integer("SELECT seq FROM notification WHERE id = $1", [notificationID])
    }

    private static func notification(_ row: PostgresRowReader) throws -> CloudNotification {
        let scope = DatabaseScope(rawValue: Int(try row.int(2))) ?? .private
        let zoneID = try row.optionalString(6).map { ZoneID(zoneName: $0, ownerName: try row.optionalString(7) ?? ZoneID.defaultOwnerName) }
        let type = CloudNotification.NotificationType(rawValue: Int(try row.int(4))) ?? .query
        let recordName = try row.optionalString(8)
        let fields = try row.optionalData(10).map(FieldCoder.decode) ?? [:]
        let display = NotificationDisplay.decode(try row.optionalString(11))
        return CloudNotification(
            notificationID: try row.string(1), sequence: try row.int(0), notificationType: type, subscriptionID: try row.string(3),
            databaseScope: scope, queryNotificationReason: try row.optionalInt(5).flatMap { CloudNotification.Reason(rawValue: Int($0)) },
            recordID: recordName.map { RecordID(recordName: $0, zoneID: zoneID ?? .default) }, recordType: try row.optionalString(9),
            recordFields: fields, recordZoneID: type == .recordZone || type == .query ? zoneID : nil,
            date: FieldValue.date(milliseconds: try row.int(12)), originatingDevice: try row.string(13), isRead: try row.bool(14),
            alertBody: display["alertBody"], title: display["title"], subtitle: display["subtitle"], category: display["category"])
    }

    private static func subscription(_ row: PostgresRowReader) throws -> SubscriptionRow {
        let recordType = try row.optionalString(5)
        let zoneID = try row.optionalString(6).map { ZoneID(zoneName: $0, ownerName: try row.optionalString(7) ?? ZoneID.defaultOwnerName) }
        let kind: Subscription.Kind
        switch SubscriptionType(rawValue: Int(try row.int(4))) {
        case .query?:
            kind = .query(recordType: recordType ?? "", predicateFormat: try row.optionalString(8) ?? "TRUEPREDICATE",
                          arguments: try SubscriptionRow.decodeArguments(try row.optionalData(9)),
                          options: QuerySubscriptionOptions(rawValue: Int(try row.int(10))), zoneID: zoneID)
        case .recordZone?:
            kind = .recordZone(zoneID: zoneID ?? .default, recordType: recordType)
        case .database?, nil:
            kind = .database(recordType: recordType)
        }
        return SubscriptionRow(id: try row.int(0), scope: DatabaseScope(rawValue: Int(try row.int(1))) ?? .private, owner: try row.string(2),
                               subscription: Subscription(subscriptionID: try row.string(3), kind: kind,
                                                          notificationInfo: try row.optionalString(11).flatMap(SubscriptionRow.decodeInfo)))
    }
}
