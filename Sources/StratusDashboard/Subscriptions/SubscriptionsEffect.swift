import StratusCloud

/// The Subscriptions tab's work and the notifications panel's poll.
enum SubscriptionsEffect: Sendable {
    case load(job: Int, scope: DatabaseScope)
    case save(job: Int, subscription: Subscription, scope: DatabaseScope)
    case delete(job: Int, subscriptionID: String, scope: DatabaseScope)
    /// Polls `notifications(afterSequence:)` every ``SubscriptionsTabState/pollInterval`` until
    /// cancelled, as this dashboard's device; nil `afterSequence` first catches up with the
    /// notifications already there.
    case watchNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?)
}
