import Foundation
import GRDB
import StratusModel
import StratusPredicates
import StratusCloud
import StratusCKWS

/// A `subscription` row: how a `Subscription` is written and read back.
struct SubscriptionRow {
    var id: Int64
    var scope: DatabaseScope
    var owner: String
    var subscription: Subscription

    static let columns = "id, scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info"

    init(id: Int64, scope: DatabaseScope, owner: String, subscription: Subscription) {
        self.id = id
        self.scope = scope
        self.owner = owner
        self.subscription = subscription
    }

    init(row: Row) throws {
        id = row["id"]
        scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        owner = row["owner"]
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
        subscription = Subscription(subscriptionID: subscriptionID, kind: kind, notificationInfo: info.flatMap(SubscriptionRow.decodeInfo))
    }

    static func all(scope: DatabaseScope, owner: String?, in db: StoreTransaction) throws -> [SubscriptionRow] {
        if let owner {
            return try Row.fetchAll(db.sqlite, sql: "SELECT \(columns) FROM subscription WHERE scope = ? AND owner = ? ORDER BY subscription_id",
                                    arguments: [scope.rawValue, owner]).map(SubscriptionRow.init)
        }
        return try Row.fetchAll(db.sqlite, sql: "SELECT \(columns) FROM subscription WHERE scope = ? ORDER BY id",
                                arguments: [scope.rawValue]).map(SubscriptionRow.init)
    }

    static func everyScope(in db: StoreTransaction) throws -> [SubscriptionRow] {
        try Row.fetchAll(db.sqlite, sql: "SELECT \(columns) FROM subscription ORDER BY id").map(SubscriptionRow.init)
    }

    static func find(_ subscriptionID: String, scope: DatabaseScope, owner: String, in db: StoreTransaction) throws -> SubscriptionRow? {
        try Row.fetchOne(db.sqlite, sql: "SELECT \(columns) FROM subscription WHERE scope = ? AND owner = ? AND subscription_id = ?",
                         arguments: [scope.rawValue, owner, subscriptionID]).map(SubscriptionRow.init)
    }

    /// Inserts or replaces the subscription with this ID.
    static func save(_ subscription: Subscription, scope: DatabaseScope, owner: String, in db: StoreTransaction) throws {
        var predicate: String?
        var arguments: Data?
        var options = 0
        if case .query(_, let format, let values, let queryOptions, _) = subscription.kind {
            predicate = format
            arguments = encodeArguments(values)
            options = queryOptions.rawValue
        }
        try db.sqlite.execute(sql: """
            INSERT OR REPLACE INTO subscription
                (scope, owner, subscription_id, kind, record_type, zone_name, zone_owner, predicate, arguments, options, info, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [scope.rawValue, owner, subscription.subscriptionID, subscription.subscriptionType.rawValue,
                             subscription.recordType, subscription.zoneID?.zoneName, subscription.zoneID?.ownerName,
                             predicate, arguments, options, subscription.notificationInfo.map(encodeInfo),
                             FieldValue.milliseconds(Date())])
        try changed(db)
    }

    /// The subscriptions' version (it grows with every change) and how many there are, or nil
    /// in a store made before subscriptions.
    static func state(in db: StoreTransaction) throws -> (version: Int64, count: Int64)? {
        guard let row = try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT version, count FROM subscription_state WHERE id = 1")) else { return nil }
        return (row["version"], row["count"])
    }

    static func delete(rowID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "DELETE FROM subscription WHERE id = ?", arguments: [rowID])
        try changed(db)
    }

    /// Bumps the version every writer checks its cached subscriptions against.
    static func changed(_ db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "UPDATE subscription_state SET version = version + 1, count = (SELECT count(*) FROM subscription) WHERE id = 1")
    }

    // MARK: - Encodings

    /// Arguments keep their exact values in the field encoding: `vN` a value, `kN` a `%K` key.
    static func encodeArguments(_ arguments: [PredicateArgument]) -> Data {
        var fields: [String: FieldValue] = [:]
        for (index, argument) in arguments.enumerated() {
            switch argument {
            case .value(let value): fields["v\(index)"] = value
            case .key(let name): fields["k\(index)"] = .string(name)
            }
        }
        return FieldCoder.encode(fields)
    }

    static func decodeArguments(_ blob: Data?) throws -> [PredicateArgument] {
        guard let blob, !blob.isEmpty else { return [] }
        let fields = try FieldCoder.decode(blob)
        var arguments: [(Int, PredicateArgument)] = []
        for (key, value) in fields {
            guard let index = Int(key.dropFirst()) else { continue }
            if key.hasPrefix("k"), case .string(let name) = value {
                arguments.append((index, .key(name)))
            } else {
                arguments.append((index, .value(value)))
            }
        }
        return arguments.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func encodeInfo(_ info: NotificationInfo) -> String {
        var members: [(String, JSONValue)] = []
        if let keys = info.desiredKeys { members.append(("desiredKeys", .array(keys.map { .string($0) }))) }
        for (name, value) in [("alertBody", info.alertBody), ("title", info.title), ("subtitle", info.subtitle),
                              ("soundName", info.soundName), ("category", info.category)] {
            if let value { members.append((name, .string(value))) }
        }
        members.append(("shouldBadge", .bool(info.shouldBadge)))
        members.append(("shouldSendContentAvailable", .bool(info.shouldSendContentAvailable)))
        return JSONWriter.string(.object(members))
    }

    static func decodeInfo(_ text: String) -> NotificationInfo? {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return nil }
        var info = NotificationInfo()
        for (name, value) in members {
            switch (name, value) {
            case ("desiredKeys", .array(let keys)):
                info.desiredKeys = keys.compactMap { if case .string(let key) = $0 { return key }; return nil }
            case ("alertBody", .string(let text)): info.alertBody = text
            case ("title", .string(let text)): info.title = text
            case ("subtitle", .string(let text)): info.subtitle = text
            case ("soundName", .string(let text)): info.soundName = text
            case ("category", .string(let text)): info.category = text
            case ("shouldBadge", .bool(let flag)): info.shouldBadge = flag
            case ("shouldSendContentAvailable", .bool(let flag)): info.shouldSendContentAvailable = flag
            default: break
            }
        }
        return info
    }
}
