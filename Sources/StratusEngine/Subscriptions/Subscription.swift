import Foundation
import StratusPredicates
import StratusCloud

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

/// `CKSubscription.SubscriptionType`, with CloudKit's raw values.
public enum SubscriptionType: Int, Hashable, Sendable, CaseIterable {
    case query = 1
    case recordZone = 2
    case database = 3

    /// The name the command line prints and reads.
    public var name: String {
        switch self {
        case .query: return "query"
        case .recordZone: return "zone"
        case .database: return "database"
        }
    }
}

/// `CKQuerySubscription.Options`, with CloudKit's raw values.
public struct QuerySubscriptionOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A record starts to match: it is created matching, or an update makes it match.
    public static let firesOnRecordCreation = QuerySubscriptionOptions(rawValue: 1 << 0)
    /// A record that matched before and after an update changed.
    public static let firesOnRecordUpdate = QuerySubscriptionOptions(rawValue: 1 << 1)
    /// A matching record is deleted, or an update makes it stop matching.
    public static let firesOnRecordDeletion = QuerySubscriptionOptions(rawValue: 1 << 2)
    /// The subscription is removed after it fires once.
    public static let firesOnce = QuerySubscriptionOptions(rawValue: 1 << 3)

    /// The three "fires on" options.
    public static let firesOnAnyChange: QuerySubscriptionOptions = [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion]
}

/// `CKSubscription.NotificationInfo`: what the notifications of a subscription carry.
public struct NotificationInfo: Hashable, Sendable {
    /// The most `desiredKeys` CloudKit takes.
    public static let maximumDesiredKeys = 3

    /// Fields of the record whose values a query notification carries (at most 3).
    public var desiredKeys: [String]?
    public var alertBody: String?
    public var title: String?
    public var subtitle: String?
    public var soundName: String?
    public var category: String?
    public var shouldBadge: Bool
    public var shouldSendContentAvailable: Bool

    public init(desiredKeys: [String]? = nil, alertBody: String? = nil, title: String? = nil, subtitle: String? = nil,
                soundName: String? = nil, category: String? = nil, shouldBadge: Bool = false, shouldSendContentAvailable: Bool = false) {
        self.desiredKeys = desiredKeys
        self.alertBody = alertBody
        self.title = title
        self.subtitle = subtitle
        self.soundName = soundName
        self.category = category
        self.shouldBadge = shouldBadge
        self.shouldSendContentAvailable = shouldSendContentAvailable
    }
}
