import StratusCloud
import StratusPredicates

extension SubscriptionJSON {
    /// A subscription with the store's own names, as `subscriptions --json` prints it: the
    /// predicate as written (`query.filter` and its `arguments`), the zone without its type, and
    /// the notification keys people set from the command line.
    static func encodeStored(_ subscription: Subscription) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("subscriptionID", .string(subscription.subscriptionID)),
            ("subscriptionType", .string(subscription.subscriptionType.name)),
        ]
        if let recordType = subscription.recordType { members.append(("recordType", .string(recordType))) }
        if let zoneID = subscription.zoneID { members.append(("zoneID", RecordJSON.encodeZoneID(zoneID, owner: nil))) }
        if case .query(_, let format, let arguments, let options, _) = subscription.kind {
            var query: [(String, JSONValue)] = [("filter", .string(format))]
            if !arguments.isEmpty { query.append(("arguments", .array(arguments.map(encodeArgument)))) }
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

    /// The `firesOn` names of a query subscription's options, in CloudKit's order.
    public static func firesOn(_ options: QuerySubscriptionOptions) -> [String] {
        var names: [String] = []
        if options.contains(.firesOnRecordCreation) { names.append("create") }
        if options.contains(.firesOnRecordUpdate) { names.append("update") }
        if options.contains(.firesOnRecordDeletion) { names.append("delete") }
        return names
    }

    private static func encodeArgument(_ argument: PredicateArgument) -> JSONValue {
        switch argument {
        case .key(let name): return .object([("key", .string(name))])
        case .value(let value): return RecordJSON.encodeField(value)
        }
    }
}
