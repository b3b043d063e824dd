/// Something a live view shows that another process may add to: what a ``StoreWatch`` waits for
/// and what a backend announces when a write that added to it commits.
public enum StoreTopic: String, Sendable, CaseIterable {
    /// Notifications made by subscriptions (`notifications --follow`, the live panel, web couriers).
    case notifications
    /// Requests a server logged (`logs --follow`, the Logs tab).
    case requestLog
    /// Firings of the sync lab's fault plan (`faults log --follow`, the Faults tab).
    case faultEvents
}
