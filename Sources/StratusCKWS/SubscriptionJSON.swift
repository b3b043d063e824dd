import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Subscriptions in the CloudKit Web Services shape: `subscriptionID`, `subscriptionType`
/// (`query`, `zone`, and `database` as Stratus's extension), `zoneID`, `query`, `firesOn`,
/// `firesOnce`, `zoneWide`, `notificationInfo`.
public enum SubscriptionJSON {
    /// Reads a subscription dictionary. A query subscription without a `zoneID` watches every
    /// zone, as CKWS's `zoneWide` does by default.
    public static func decode(_ json: JSONValue, path: String = "subscription") throws(RecordJSON.DecodingError) -> Subscription {
        guard case .object = json else { throw RecordJSON.DecodingError(path: path, message: "must be an object") }
        let id = json["subscriptionID"]?.stringValue ?? UUID().uuidString
        let info = try notificationInfo(json["notificationInfo"], path: "\(path).notificationInfo")
        let zoneID = try json["zoneID"].map { value throws(RecordJSON.DecodingError) in try zone(value, path: "\(path).zoneID") }
        switch json["subscriptionType"]?.stringValue ?? (json["query"] != nil ? "query" : "zone") {
        case "query":
            guard let queryJSON = json["query"] else { throw RecordJSON.DecodingError(path: "\(path).query", message: "missing; a query subscription names a query") }
            let query = try QueryJSON.decode(queryJSON, path: "\(path).query")
            var options: QuerySubscriptionOptions = []
            if case .array(let events)? = json["firesOn"] {
                for event in events {
                    switch event.stringValue {
                    case "create": options.insert(.firesOnRecordCreation)
                    case "update": options.insert(.firesOnRecordUpdate)
                    case "delete": options.insert(.firesOnRecordDeletion)
                    default: throw RecordJSON.DecodingError(path: "\(path).firesOn", message: "use create, update and delete")
                    }
                }
            } else {
                options = .firesOnAnyChange
            }
            if case .bool(true)? = json["firesOnce"] { options.insert(.firesOnce) }
            let wide = json["zoneWide"]?.boolValue ?? (zoneID == nil)
            return .query(query.recordType, predicateFormat: query.predicateFormat, arguments: query.arguments, subscriptionID: id,
                          options: options, zoneID: wide ? nil : (zoneID ?? .default), notificationInfo: info)
        case "zone":
            guard let zoneID else { throw RecordJSON.DecodingError(path: "\(path).zoneID", message: "missing; a zone subscription names its zone") }
            return .recordZone(zoneID, subscriptionID: id, notificationInfo: info)
        case "database":
            return .database(subscriptionID: id, notificationInfo: info)
        case let other:
            throw RecordJSON.DecodingError(path: "\(path).subscriptionType", message: "unknown type '\(other)'; use query or zone (or database)")
        }
    }

    /// A subscription as responses carry it; `owner` stands for the default zone owner. With no
    /// owner, with the store's own names, as the command line prints it (see `encodeStored`).
    public static func encode(_ subscription: Subscription, owner: String?) -> JSONValue {
        guard let owner else { return encodeStored(subscription) }
        var members: [(String, JSONValue)] = [("subscriptionID", .string(subscription.subscriptionID))]
        switch subscription.kind {
        case .query(let recordType, let format, let arguments, let options, let zoneID):
            members.append(("subscriptionType", .string("query")))
            var query: JSONValue = .object([("recordType", .string(recordType))])
            if case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: arguments, recordType: recordType),
               let encoded = QueryJSON.encode(recordType: recordType, filter: compiled.filter, sorts: []) {
                query = encoded
            } else if case .object(var keys) = query {
                // A predicate CKWS cannot spell keeps its own words.
                keys.append(("predicate", .string(format)))
                query = .object(keys)
            }
            members.append(("query", query))
            members.append(("firesOn", .array(firesOn(options).map { .string($0) })))
            members.append(("firesOnce", .bool(options.contains(.firesOnce))))
            members.append(("zoneWide", .bool(zoneID == nil)))
            if let zoneID { members.append(("zoneID", RecordJSON.encodeZoneID(zoneID, owner: owner))) }
        case .recordZone(let zoneID, _):
            members.append(("subscriptionType", .string("zone")))
            members.append(("zoneID", RecordJSON.encodeZoneID(zoneID, owner: owner)))
        case .database:
            members.append(("subscriptionType", .string("database")))
        }
        if let info = subscription.notificationInfo {
            var keys: [(String, JSONValue)] = []
            if let body = info.alertBody { keys.append(("alertBody", .string(body))) }
            if let key = info.alertLocalizationKey { keys.append(("alertLocalizationKey", .string(key))) }
            if let arguments = info.alertLocalizationArgs { keys.append(("alertLocalizationArgs", .array(arguments.map { .string($0) }))) }
            if let key = info.alertActionLocalizationKey { keys.append(("alertActionLocalizationKey", .string(key))) }
            if let image = info.alertLaunchImage { keys.append(("alertLaunchImage", .string(image))) }
            if let sound = info.soundName { keys.append(("soundName", .string(sound))) }
            keys.append(("shouldBadge", .bool(info.shouldBadge)))
            keys.append(("shouldSendContentAvailable", .bool(info.shouldSendContentAvailable)))
            members.append(("notificationInfo", .object(keys)))
        }
        return .object(members)
    }

    private static func zone(_ json: JSONValue, path: String) throws(RecordJSON.DecodingError) -> ZoneID {
        guard case .object = json else { throw RecordJSON.DecodingError(path: path, message: "must be an object with a zoneName") }
        return ZoneID(zoneName: json["zoneName"]?.stringValue ?? ZoneID.defaultZoneName)
    }

    private static func notificationInfo(_ json: JSONValue?, path: String) throws(RecordJSON.DecodingError) -> NotificationInfo? {
        guard let json, json != .null else { return nil }
        guard case .object = json else { throw RecordJSON.DecodingError(path: path, message: "must be an object") }
        var info = NotificationInfo(alertBody: json["alertBody"]?.stringValue, soundName: json["soundName"]?.stringValue,
                                    shouldBadge: json["shouldBadge"]?.boolValue ?? false,
                                    shouldSendContentAvailable: json["shouldSendContentAvailable"]?.boolValue ?? false)
        info.alertLocalizationKey = json["alertLocalizationKey"]?.stringValue
        info.alertActionLocalizationKey = json["alertActionLocalizationKey"]?.stringValue
        info.alertLaunchImage = json["alertLaunchImage"]?.stringValue
        if let arguments = json["alertLocalizationArgs"], arguments != .null {
            let names = arguments.arrayOfStrings
            guard let names else { throw RecordJSON.DecodingError(path: "\(path).alertLocalizationArgs", message: "must be an array of field names") }
            info.alertLocalizationArgs = names
        }
        return info
    }
}
