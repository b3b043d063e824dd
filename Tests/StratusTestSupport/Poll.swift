import Foundation

/// Waits for a condition by checking it again and again, up to a time limit: how the tests that
/// watch another process (a tmux pane, a server stopping) wait without fixed sleeps.
public enum Poll {
    /// Checks `condition` now and then every `interval` until it holds (true) or `timeout` has
    /// passed (false). Blocks the calling thread.
    public static func until(timeout: Duration, every interval: Duration = .milliseconds(30),
                             _ condition: () throws -> Bool) rethrows -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while clock.now < end {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: interval.seconds)
        }
        return try condition()
    }

    /// Checks `condition` now and then every `interval` until it holds (true) or `timeout` has
    /// passed (false), sleeping the task rather than the thread in between. (Named apart from
    /// ``until(timeout:every:_:)``, which an async caller with a plain closure would get.)
    public static func asyncUntil(timeout: Duration, every interval: Duration = .milliseconds(30),
                             _ condition: () async throws -> Bool) async throws -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while clock.now < end {
            if try await condition() { return true }
            try await Task.sleep(for: interval)
        }
        return try await condition()
    }
}

private extension Duration {
    /// The duration in seconds, for `Thread.sleep`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
