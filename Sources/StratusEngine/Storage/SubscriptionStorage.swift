import StratusCloud
import StratusModel
import StratusPredicates

/// Subscriptions, each unique per (database, owner, ID), with a version that grows with every
/// change (so a writer knows in one read whether its cached, compiled subscriptions are
/// current); and the notifications they made, in commit order.
package protocol SubscriptionStorage {
    /// The subscriptions of `owner` (nil: everyone's) in `scope`.
    func all(scope: DatabaseScope, owner: String?) throws -> [SubscriptionRow]

    /// Every subscription of every database.
    func everyScope() throws -> [SubscriptionRow]

    func find(_ subscriptionID: String, scope: DatabaseScope, owner: String) throws -> SubscriptionRow?

    /// Inserts or replaces the subscription with this ID.
    func save(_ subscription: Subscription, scope: DatabaseScope, owner: String) throws

    /// The subscriptions' version (it grows with every change) and how many there are, or nil
    /// in a store made before subscriptions.
    func state() throws -> (version: Int64, count: Int64)?

    func delete(rowID: Int64) throws

    /// The notifications `owner` receives in `scope` after `sequence`, oldest first; those made
    /// by `excludingDevice` left out.
    func fetchNotifications(scope: DatabaseScope, owner: String, after sequence: Int64, excludingDevice: String?, unreadOnly: Bool,
                            limit: Int) throws -> [CloudNotification]

    /// Writes a new notification for `owner`, which gets the next sequence. `display` is
    /// ``NotificationDisplay/encode(alertBody:title:subtitle:category:)``'s text.
    func insertNotification(id: String, scope: DatabaseScope, owner: String, subscriptionID: String, type: CloudNotification.NotificationType,
                            reason: CloudNotification.Reason?, zoneID: ZoneID?, recordName: String?, recordType: String?,
                            fields: [String: FieldValue], display: String?, createdAt: Int64, originDevice: String) throws

    /// Marks the owner's notifications with these IDs read; unknown IDs are ignored.
    func markNotificationsRead(_ notificationIDs: [String], owner: String) throws

    /// The sequence of the notification with this ID, or nil.
    func notificationSequence(of notificationID: String) throws -> Int64?
}
