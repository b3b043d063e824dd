import Foundation
import StratusEngine
import StratusModel
import StratusCloud

/// The Subscriptions tab's effects: subscriptions and the live notifications panel.
extension EffectRunner {
    /// Loads, saves and deletes subscriptions, and watches notifications.
    func executeSubscriptions(_ effect: SubscriptionsEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job, let scope):
            post(.subscriptions(.loaded(job: job, capture { try database(scope).allSubscriptions() })))

        case .save(let job, let subscription, let scope):
            post(.subscriptions(.saved(job: job, capture { try database(scope).save(subscription) })))

        case .delete(let job, let subscriptionID, let scope):
            post(.subscriptions(.deleted(job: job, capture {
                try database(scope).deleteSubscription(withID: subscriptionID)
                return subscriptionID
            })))

        case .watchNotifications(let job, let scope, let afterSequence):
            watchNotifications(job: job, scope: scope, afterSequence: afterSequence, post: post)
        }
    }

    /// The live panel: one indexed read whenever notifications may have arrived (``StoreWatch``:
    /// announced by PostgreSQL, every ``SubscriptionsTabState/pollInterval`` on a file), posting
    /// only when something did, until the job is cancelled.
    private func watchNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?, post: (DashboardMessage) -> Void) {
        var sequence = afterSequence
        let interval = SubscriptionsTabState.pollInterval
        let watch = services.cloud.localStore?.watch([.notifications], polling: interval) ?? .polled(every: interval)
        while !isCancelled(job) {
            if sequence != nil && watch.next(stopped: { isCancelled(job) }) == .stopped { return }
            if isCancelled(job) { return }
            guard let next = pollNotifications(job: job, scope: scope, afterSequence: sequence, post: post) else { return }
            sequence = next
        }
    }

    /// One poll of the live panel: the notifications after `afterSequence` (nil: catch up with
    /// all there are, keeping the newest the panel shows), posted when there are any. Returns
    /// where the next poll starts; nil after an error (posted).
    func pollNotifications(job: Int, scope: DatabaseScope, afterSequence: Int64?, post: (DashboardMessage) -> Void) -> Int64? {
        let database = database(scope)
        let limit = CloudKitLimits.defaultNotificationLimit
        do {
            var sequence = afterSequence ?? 0
            if afterSequence == nil {
                var kept: [CloudNotification] = []
                while !isCancelled(job) {
                    let page = try database.notifications(afterSequence: sequence, limit: limit)
                    guard let last = page.last else { break }
                    sequence = last.sequence
                    kept = Array((kept + page).suffix(SubscriptionsTabState.maximumKept))
                    if page.count < limit { break }
                }
                post(.subscriptions(.notificationsArrived(job: job, kept, catchUp: true)))
                return sequence
            }
            let page = try database.notifications(afterSequence: sequence, limit: limit)
            if let last = page.last {
                sequence = last.sequence
                post(.subscriptions(.notificationsArrived(job: job, page, catchUp: false)))
            }
            return sequence
        } catch {
            post(.subscriptions(.notificationsFailed(job: job, EffectRunner.cloudKitError(error))))
            return nil
        }
    }
}
