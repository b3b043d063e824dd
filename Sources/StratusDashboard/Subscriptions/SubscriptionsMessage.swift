import StratusCloud
import StratusEngine

/// What the Subscriptions tab's effects report back, and the notifications panel's poll.
enum SubscriptionsMessage: Sendable {
    case loaded(job: Int, Result<[Subscription], CloudKitError>)
    case saved(job: Int, Result<Subscription, CloudKitError>)
    case deleted(job: Int, Result<String, CloudKitError>)
    /// New notifications from the panel's poll (`catchUp`: the ones that were there before it started).
    case notificationsArrived(job: Int, [CloudNotification], catchUp: Bool)
    case notificationsFailed(job: Int, CloudKitError)
}
