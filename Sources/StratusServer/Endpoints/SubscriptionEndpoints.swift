import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`.
enum SubscriptionEndpoints {
    static func list(_ call: CKWSCall) throws -> JSONValue {
        .object([("subscriptions", .array(try call.database.allSubscriptions().map { SubscriptionJSON.encode($0, owner: call.owner) }))])
    }

    /// One entry per requested ID, in order; a missing one is a per-subscription `NOT_FOUND`.
    static func lookup(_ call: CKWSCall) throws -> JSONValue {
        guard case .array(let items)? = call.body["subscriptions"] else {
            throw CKWSFailure.badRequest("subscriptions: missing; send {\"subscriptions\": [{\"subscriptionID\": ...}]}")
        }
        return .object([("subscriptions", .array(try items.enumerated().map { index, item in
            guard let id = item["subscriptionID"]?.stringValue else { throw CKWSFailure.badRequest("subscriptions[\(index)].subscriptionID: missing") }
            do {
                return SubscriptionJSON.encode(try call.database.subscription(for: id), owner: call.owner)
            } catch let error as CloudKitError {
                return error.ckwsItem(("subscriptionID", .string(id)))
            }
        }))])
    }

    /// Creates, updates and deletes subscriptions, each on its own; answers one entry per
    /// operation.
    static func modify(_ call: CKWSCall) throws -> JSONValue {
        guard case .array(let items)? = call.body["operations"] else {
            throw CKWSFailure.badRequest("operations: missing; send {\"operations\": [{\"operationType\", \"subscription\"}]}")
        }
        var results: [JSONValue] = []
        for (index, item) in items.enumerated() {
            let path = "operations[\(index)]"
            guard let type = item["operationType"]?.stringValue, ["create", "update", "delete"].contains(type) else {
                throw CKWSFailure.badRequest("\(path).operationType: use create, update or delete")
            }
            guard let json = item["subscription"] else { throw CKWSFailure.badRequest("\(path).subscription: missing") }
            if type == "delete" {
                guard let id = json["subscriptionID"]?.stringValue else { throw CKWSFailure.badRequest("\(path).subscription.subscriptionID: missing") }
                do {
                    try call.database.deleteSubscription(withID: id)
                    results.append(DeletionJSON.subscription(id))
                } catch let error as CloudKitError {
                    results.append(error.ckwsItem(("subscriptionID", .string(id))))
                }
                continue
            }
            let subscription: Subscription
            do {
                subscription = try SubscriptionJSON.decode(json, path: "\(path).subscription")
            } catch {
                throw CKWSFailure.badRequest(error.description)
            }
            do {
                results.append(SubscriptionJSON.encode(try call.database.save(subscription), owner: call.owner))
            } catch let error as CloudKitError {
                results.append(error.ckwsItem(("subscriptionID", .string(subscription.subscriptionID))))
            }
        }
        return .object([("subscriptions", .array(results))])
    }
}
