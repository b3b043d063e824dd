import Foundation
import StratusEngine

/// Waits out a remote's throttling for the dashboard: the status line counts the seconds down
/// ("retrying in 7 s, Esc cancels") and Esc stops the wait, so the call fails at once instead
/// of the dashboard seeming to hang. The wait runs on the effect's own thread, never the UI's.
public final class ThrottleCountdown: ThrottleWaiter, @unchecked Sendable {
    // Every access to `stopped` and `post` holds `condition`, hence `@unchecked Sendable`.
    private let condition = NSCondition()
    private var stopped = false
    private var post: (@Sendable (DashboardMessage) -> Void)?

    public init() {}

    /// Where the countdown goes: the app's mailbox (a test's list).
    func connect(_ post: @escaping @Sendable (DashboardMessage) -> Void) {
        condition.withLock { self.post = post }
    }

    public func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        stopped = false
        var shown: Int?
        while !stopped {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                post?(.throttled(secondsLeft: nil))
                return true
            }
            let whole = Int(left.rounded(.up))
            if whole != shown {
                shown = whole
                post?(.throttled(secondsLeft: whole))
            }
            // Woken when the number shown changes, or by Esc.
            _ = condition.wait(until: Date(timeIntervalSinceNow: left - Double(whole - 1)))
        }
        post?(.throttled(secondsLeft: nil))
        return false
    }

    /// Esc: the wait under way ends now, and its call fails with the server's error.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
