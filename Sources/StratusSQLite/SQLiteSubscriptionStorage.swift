import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel
import StratusPredicates

/// Subscriptions and the notifications they made, in the `subscription`, `subscription_state`
/// and `notification` tables (``SubscriptionTables``).
struct SQLiteSubscriptionStorage: SubscriptionStorage {
    let db: SQLiteTransaction

    static let columns = "id, scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info"
    static let notificationColumns = """
        seq, id, scope, subscription_id, kind, reason, zone_name, zone_owner, record_name, record_type, fields, info,
        created_at, origin_device, read
        """

    func all(scope: DatabaseScope, owner: String?) throws -> [SubscriptionRow] {
        if let owner {
            return try Row.fetchAll(db.sqlite, sql: "SELECT \(Self.columns) FROM subscription WHERE scope = ? AND owner = ? ORDER BY subscription_id",
                                    arguments: [scope.rawValue, owner]).map(SubscriptionRow.init(row:))
        }
        return try Row.fetchAll(db.sqlite, sql: "SELECT \(Self.columns) FROM subscription WHERE scope = ? ORDER BY id",
                                arguments: [scope.rawValue]).map(SubscriptionRow.init(row:))
    }

    func everyScope() throws -> [SubscriptionRow] {
        try Row.fetchAll(db.sqlite, sql: "SELECT \(Self.columns) FROM subscription ORDER BY id").map(SubscriptionRow.init(row:))
    }

    func find(_ subscriptionID: String, scope: DatabaseScope, owner: String) throws -> SubscriptionRow? {
        try Row.fetchOne(db.sqlite, sql: "SELECT \(Self.columns) FROM subscription WHERE scope = ? AND owner = ? AND subscription_id = ?",
                         arguments: [scope.rawValue, owner, subscriptionID]).map(SubscriptionRow.init(row:))
    }

    /// Inserts or replaces the subscription with this ID.
    func save(_ subscription: Subscription, scope: DatabaseScope, owner: String) throws {
        let (predicate, arguments, options) = SubscriptionRow.queryColumns(of: subscription)
        try db.sqlite.execute(sql: """
            INSERT OR REPLACE INTO subscription
                (scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [scope.rawValue, owner, subscription.subscriptionID, subscription.subscriptionType.rawValue,
                             subscription.recordType, subscription.zoneID?.zoneName, subscription.zoneID?.ownerName,
                             predicate, arguments, options, subscription.notificationInfo.map(SubscriptionRow.encodeInfo),
                             FieldValue.milliseconds(Date())])
        try changed()
    }

    /// The subscriptions' version (it grows with every change) and how many there are, or nil
    /// in a store made before subscriptions.
    func state() throws -> (version: Int64, count: Int64)? {
        guard let row = try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT version, count FROM subscription_state WHERE id = 1")) else { return nil }
        return (row["version"], row["count"])
    }

    func delete(rowID: Int64) throws {
        try db.sqlite.execute(sql: "DELETE FROM subscription WHERE id = ?", arguments: [rowID])
        try changed()
    }

    /// Bumps the version every writer checks its cached subscriptions against.
    private func changed() throws {
        try db.sqlite.execute(sql: "UPDATE subscription_state SET version = version + 1, count = (SELECT count(*) FROM subscription) WHERE id = 1")
    }

    /// The notifications `owner` receives in `scope` after `sequence`, oldest first; those made
    /// by `excludingDevice` left out.
    func fetchNotifications(scope: DatabaseScope, owner: String, after sequence: Int64, excludingDevice: String?, unreadOnly: Bool, limit: Int) throws -> [CloudNotification] {
        var sql = "SELECT \(Self.notificationColumns) FROM notification WHERE scope = ? AND owner = ? AND seq > ?"
        var arguments: StatementArguments = [scope.rawValue, owner, sequence]
        if let excludingDevice {
            sql += " AND origin_device <> ?"
            _ = arguments.append(contentsOf: [excludingDevice])
        }
        if unreadOnly { sql += " AND read = 0" }
        sql += " ORDER BY seq LIMIT ?"
        _ = arguments.append(contentsOf: [limit])
        return try Row.fetchAll(db.sqlite.cachedStatement(sql: sql), arguments: arguments).map(Self.notification)
    }

    /// Writes a new notification for `owner`; the table gives it the next sequence. `display`
    /// is ``NotificationDisplay``'s text; no fields are stored as NULL.
    func insertNotification(id: String, scope: DatabaseScope, owner: String, subscriptionID: String, type: CloudNotification.NotificationType, reason: CloudNotification.Reason?, zoneID: ZoneID?, recordName: String?, recordType: String?, fields: [String: FieldValue], display: String?, createdAt: Int64, originDevice: String) throws {
        // Bound one by one, so the cached statement does not keep the fields blob (see RecordRowWriter.update).
        let insert = try DirectStatement("""
            INSERT INTO notification (id, scope, owner, subscription_id, kind, reason, zone_name, zone_owner, record_name, record_type,
                                      fields, info, created_at, origin_device)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, in: db)
        insert.bind(1, id)
        insert.bind(2, Int64(scope.rawValue))
        insert.bind(3, owner)
        insert.bind(4, subscriptionID)
        insert.bind(5, Int64(type.rawValue))
        insert.bind(6, reason.map { Int64($0.rawValue) })
        insert.bind(7, zoneID?.zoneName)
        insert.bind(8, zoneID?.ownerName)
        insert.bind(9, recordName)
        insert.bind(10, recordType)
        if fields.isEmpty { insert.bindNull(11) } else { insert.bind(11, FieldCoder.encode(fields)) }
        insert.bind(12, display)
        insert.bind(13, createdAt)
        insert.bind(14, originDevice)
        try insert.run()
    }

    /// Marks the owner's notifications with these IDs read; unknown IDs are ignored.
    func markNotificationsRead(_ notificationIDs: [String], owner: String) throws {
        let statement = try db.sqlite.cachedStatement(sql: "UPDATE notification SET read = 1 WHERE id = ? AND owner = ?")
        for id in notificationIDs { try statement.execute(arguments: [id, owner]) }
    }

    func notificationSequence(of notificationID: String) throws -> Int64? {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT seq FROM notification WHERE id = ?"), arguments: [notificationID])
    }

    private static func notification(_ row: Row) throws -> CloudNotification {
        let scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        let zoneName: String? = row["zone_name"]
        let zoneID = zoneName.map { ZoneID(zoneName: $0, ownerName: row["zone_owner"] ?? ZoneID.defaultOwnerName) }
        let type = CloudNotification.NotificationType(rawValue: row["kind"]) ?? .query
        let recordName: String? = row["record_name"]
        let blob: Data? = row["fields"]
        let fields = try blob.map(FieldCoder.decode) ?? [:]
        let display = NotificationDisplay.decode(row["info"])
        let reason: Int? = row["reason"]
        return CloudNotification(
            notificationID: row["id"], sequence: row["seq"], notificationType: type, subscriptionID: row["subscription_id"],
            databaseScope: scope, queryNotificationReason: reason.flatMap(CloudNotification.Reason.init(rawValue:)),
            recordID: recordName.map { RecordID(recordName: $0, zoneID: zoneID ?? .default) }, recordType: row["record_type"],
            recordFields: fields, recordZoneID: type == .recordZone || type == .query ? zoneID : nil,
            date: FieldValue.date(milliseconds: row["created_at"]), originatingDevice: row["origin_device"], isRead: row["read"],
            alertBody: display["alertBody"], title: display["title"], subtitle: display["subtitle"], category: display["category"])
    }

}

extension SubscriptionRow {
    /// The subscription a `subscription` row holds.
    init(row: Row) throws {
        let subscriptionID: String = row["subscription_id"]
        let recordType: String? = row["record_type"]
        let zoneName: String? = row["zone_name"]
        let zoneID = zoneName.map { ZoneID(zoneName: $0, ownerName: row["zone_owner"] ?? ZoneID.defaultOwnerName) }
        let kind: Subscription.Kind
        switch SubscriptionType(rawValue: row["kind"]) {
        case .query?:
            let blob: Data? = row["arguments"]
            kind = .query(recordType: recordType ?? "", predicateFormat: row["predicate"] ?? "TRUEPREDICATE",
                          arguments: try SubscriptionRow.decodeArguments(blob), options: QuerySubscriptionOptions(rawValue: row["options"]),
                          zoneID: zoneID)
        case .recordZone?:
            kind = .recordZone(zoneID: zoneID ?? .default, recordType: recordType)
        case .database?, nil:
            kind = .database(recordType: recordType)
        }
        let info: String? = row["info"]
        self.init(id: row["id"], scope: DatabaseScope(rawValue: row["scope"]) ?? .private, owner: row["owner"],
                  subscription: Subscription(subscriptionID: subscriptionID, kind: kind, notificationInfo: info.flatMap(SubscriptionRow.decodeInfo)))
    }
}
