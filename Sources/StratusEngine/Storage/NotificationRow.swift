import Foundation
import GRDB
import StratusModel
import StratusCloud
import StratusCKWS

/// Reads `notification` rows back as `CloudNotification`s.
enum NotificationRow {
    static let columns = """
        seq, id, scope, subscription_id, kind, reason, zone_name, zone_owner, record_name, record_type, fields, info,
        created_at, origin_device, read
        """

    /// The notifications `owner` receives in `scope` after `sequence`, oldest first; those made
    /// by `excludingDevice` left out.
    static func fetch(scope: DatabaseScope, owner: String, after sequence: Int64, excludingDevice: String?, unreadOnly: Bool,
                      limit: Int, in db: StoreTransaction) throws -> [CloudNotification] {
        var sql = "SELECT \(columns) FROM notification WHERE scope = ? AND owner = ? AND seq > ?"
        var arguments: StatementArguments = [scope.rawValue, owner, sequence]
        if let excludingDevice {
            sql += " AND origin_device <> ?"
            _ = arguments.append(contentsOf: [excludingDevice])
        }
        if unreadOnly { sql += " AND read = 0" }
        sql += " ORDER BY seq LIMIT ?"
        _ = arguments.append(contentsOf: [limit])
        return try Row.fetchAll(db.sqlite.cachedStatement(sql: sql), arguments: arguments).map(decode)
    }

    /// Writes a new notification for `owner`; the table gives it the next sequence. `display`
    /// is `encodeDisplay`'s text; no fields are stored as NULL.
    static func insert(id: String, scope: DatabaseScope, owner: String, subscriptionID: String, type: CloudNotification.NotificationType,
                       reason: CloudNotification.Reason?, zoneID: ZoneID?, recordName: String?, recordType: String?,
                       fields: [String: FieldValue], display: String?, createdAt: Int64, originDevice: String, in db: StoreTransaction) throws {
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
    static func markRead(_ notificationIDs: [String], owner: String, in db: StoreTransaction) throws {
        let statement = try db.sqlite.cachedStatement(sql: "UPDATE notification SET read = 1 WHERE id = ? AND owner = ?")
        for id in notificationIDs { try statement.execute(arguments: [id, owner]) }
    }

    static func sequence(of notificationID: String, in db: StoreTransaction) throws -> Int64? {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT seq FROM notification WHERE id = ?"), arguments: [notificationID])
    }

    static func decode(_ row: Row) throws -> CloudNotification {
        let scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        let zoneName: String? = row["zone_name"]
        let zoneID = zoneName.map { ZoneID(zoneName: $0, ownerName: row["zone_owner"] ?? ZoneID.defaultOwnerName) }
        let type = CloudNotification.NotificationType(rawValue: row["kind"]) ?? .query
        let recordName: String? = row["record_name"]
        let blob: Data? = row["fields"]
        let fields = try blob.map(FieldCoder.decode) ?? [:]
        let display = decodeDisplay(row["info"])
        let reason: Int? = row["reason"]
        return CloudNotification(
            notificationID: row["id"], sequence: row["seq"], notificationType: type, subscriptionID: row["subscription_id"],
            databaseScope: scope, queryNotificationReason: reason.flatMap(CloudNotification.Reason.init(rawValue:)),
            recordID: recordName.map { RecordID(recordName: $0, zoneID: zoneID ?? .default) }, recordType: row["record_type"],
            recordFields: fields, recordZoneID: type == .recordZone || type == .query ? zoneID : nil,
            date: FieldValue.date(milliseconds: row["created_at"]), originatingDevice: row["origin_device"], isRead: row["read"],
            alertBody: display["alertBody"], title: display["title"], subtitle: display["subtitle"], category: display["category"])
    }

    /// The alert texts a notification copies from its subscription, as a small JSON object.
    static func encodeDisplay(alertBody: String?, title: String?, subtitle: String?, category: String?) -> String? {
        let members = [("alertBody", alertBody), ("title", title), ("subtitle", subtitle), ("category", category)]
            .compactMap { name, value in value.map { (name, JSONValue.string($0)) } }
        return members.isEmpty ? nil : JSONWriter.string(.object(members))
    }

    private static func decodeDisplay(_ text: String?) -> [String: String] {
        guard let text, case .object(let members)? = try? JSONParser.parse(text) else { return [:] }
        var result: [String: String] = [:]
        for (name, value) in members { if case .string(let string) = value { result[name] = string } }
        return result
    }
}
