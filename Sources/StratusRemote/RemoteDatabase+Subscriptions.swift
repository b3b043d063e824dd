import Foundation
import StratusCKWS
import StratusCloud
import StratusModel
import StratusEngine

/// `subscriptions/list` and `subscriptions/modify`; what CKWS has no call for (notifications,
/// a zone's history) is refused.
extension RemoteDatabase {
    public func allSubscriptions() throws -> [Subscription] {
        let answer = try call("subscriptions/list")
        return try items(answer["subscriptions"], path: "subscriptions").map { json in
            try decoded { () throws(RecordJSON.DecodingError) in try SubscriptionJSON.decode(json) }
        }
    }

    @discardableResult
    public func save(_ subscription: Subscription) throws -> Subscription {
        let json = SubscriptionJSON.encode(subscription, owner: "")
        let answer = try call("subscriptions/modify", .object([("operations", .array([.object([("operationType", .string("create")), ("subscription", json)])]))]))
        guard let item = try items(answer["subscriptions"], path: "subscriptions").first else { return subscription }
        if let error = ItemErrorJSON.decode(item) { throw error }
        return try decoded { () throws(RecordJSON.DecodingError) in try SubscriptionJSON.decode(item) }
    }

    public func deleteSubscription(withID subscriptionID: String) throws {
        let operation: JSONValue = .object([("operationType", .string("delete")), ("subscription", .object([("subscriptionID", .string(subscriptionID))]))])
        let answer = try call("subscriptions/modify", .object([("operations", .array([operation]))]))
        if let item = try items(answer["subscriptions"], path: "subscriptions").first, let error = ItemErrorJSON.decode(item) {
            var typed = error
            if typed.code == .unknownItem { typed.reason = .unknownSubscription(subscriptionID: subscriptionID, database: scope) }
            throw typed
        }
    }

    public func notifications(afterSequence sequence: Int64, limit: Int?, unreadOnly: Bool, includingOwnDevice: Bool) throws -> [CloudNotification] {
        throw RemoteDatabase.unavailable("reading notifications (they arrive through a push token)")
    }

    // MARK: History

    public func compactHistory(inZoneWith zoneID: ZoneID, before token: String?, keeping: Int?) throws -> HistoryCompaction {
        throw RemoteDatabase.unavailable("compacting a zone's history")
    }

    public func historyStart(for zoneID: ZoneID) throws -> (oldestValidToken: String, compactedSequence: Int64) {
        throw RemoteDatabase.unavailable("where a zone's history starts")
    }

    public func changeActivity(inZoneWith zoneID: ZoneID, buckets: Int) throws -> [Int] {
        throw RemoteDatabase.unavailable("a zone's change activity")
    }
}
