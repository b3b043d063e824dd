import Foundation
import StratusPredicates

/// A subscription, as `CKSubscription` and its three kinds describe one: a query subscription
/// (`CKQuerySubscription`), a record zone subscription (`CKRecordZoneSubscription`) or a database
/// subscription (`CKDatabaseSubscription`).
///
/// Save it with `CloudDatabase.modifySubscriptions(saving:deleting:)`; saving one whose ID
/// exists replaces it.
public struct Subscription: Hashable, Sendable {
    /// What the subscription watches.
    public enum Kind: Hashable, Sendable {
        /// Records of `recordType` matching the predicate, in `zoneID` or (nil) every zone.
        case query(recordType: String, predicateFormat: String, arguments: [PredicateArgument],
                   options: QuerySubscriptionOptions, zoneID: ZoneID?)
        /// Every change in one custom zone, optionally only of one record type.
        case recordZone(zoneID: ZoneID, recordType: String?)
        /// Every change in the database's custom zones, optionally only of one record type.
        case database(recordType: String?)
    }

    public var subscriptionID: String
    public var kind: Kind
    public var notificationInfo: NotificationInfo?

    public init(subscriptionID: String = UUID().uuidString, kind: Kind, notificationInfo: NotificationInfo? = nil) {
        self.subscriptionID = subscriptionID
        self.kind = kind
        self.notificationInfo = notificationInfo
    }

    /// A query subscription, as `CKQuerySubscription(recordType:predicate:subscriptionID:options:)`.
    public static func query(
        _ recordType: String, predicateFormat: String = "TRUEPREDICATE", arguments: [PredicateArgument] = [],
        subscriptionID: String = UUID().uuidString, options: QuerySubscriptionOptions, zoneID: ZoneID? = nil,
        notificationInfo: NotificationInfo? = nil
    ) -> Subscription {
        Subscription(subscriptionID: subscriptionID,
                     kind: .query(recordType: recordType, predicateFormat: predicateFormat, arguments: arguments, options: options, zoneID: zoneID),
                     notificationInfo: notificationInfo)
    }

    /// A record zone subscription, as `CKRecordZoneSubscription(zoneID:subscriptionID:)`.
    public static func recordZone(
        _ zoneID: ZoneID, recordType: String? = nil, subscriptionID: String = UUID().uuidString,
        notificationInfo: NotificationInfo? = nil
    ) -> Subscription {
        Subscription(subscriptionID: subscriptionID, kind: .recordZone(zoneID: zoneID, recordType: recordType), notificationInfo: notificationInfo)
    }

    /// A database subscription, as `CKDatabaseSubscription(subscriptionID:)`.
    public static func database(
        recordType: String? = nil, subscriptionID: String = UUID().uuidString, notificationInfo: NotificationInfo? = nil
    ) -> Subscription {
        Subscription(subscriptionID: subscriptionID, kind: .database(recordType: recordType), notificationInfo: notificationInfo)
    }

    /// `CKSubscription.SubscriptionType`.
    public var subscriptionType: SubscriptionType {
        switch kind {
        case .query: return .query
        case .recordZone: return .recordZone
        case .database: return .database
        }
    }

    /// The record type the subscription is limited to, if any.
    public var recordType: String? {
        switch kind {
        case .query(let recordType, _, _, _, _): return recordType
        case .recordZone(_, let recordType), .database(let recordType): return recordType
        }
    }

    /// The zone the subscription is limited to, if any.
    public var zoneID: ZoneID? {
        switch kind {
        case .query(_, _, _, _, let zoneID): return zoneID
        case .recordZone(let zoneID, _): return zoneID
        case .database: return nil
        }
    }

    /// The query subscription's options; empty for the other kinds.
    public var querySubscriptionOptions: QuerySubscriptionOptions {
        if case .query(_, _, _, let options, _) = kind { return options }
        return []
    }
}
