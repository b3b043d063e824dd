/// Waits out a server's throttling (`retryAfter` on a 429 or 503) before a call is sent again.
/// A remote client asks it rather than sleeping itself, so a front end can show the wait and
/// let the user stop it: the command line says it waits and sleeps, the dashboard counts down
/// in its status line.
public protocol ThrottleWaiter: Sendable {
    /// Told of each wait before it starts (a command line prints it; a silent wait looks like a hang).
    func willWait(_ wait: ThrottleWait)
    /// Waits `seconds` on the calling thread; false when the wait was stopped (the call then
    /// fails with the server's throttling error).
    func wait(seconds: Double) -> Bool
}

extension ThrottleWaiter {
    public func willWait(_ wait: ThrottleWait) {}
}

/// One wait on a throttled answer, as a front end shows it.
public struct ThrottleWait: Sendable, Hashable {
    /// The answer's `serverErrorCode` (`THROTTLED`, `TRY_AGAIN_LATER`) or its HTTP status.
    public var code: String
    public var seconds: Double
    /// Which retry this is (1 for the first) of at most `attempts`.
    public var attempt: Int
    public var attempts: Int

    public init(code: String, seconds: Double, attempt: Int, attempts: Int) {
        self.code = code
        self.seconds = seconds
        self.attempt = attempt
        self.attempts = attempts
    }
}
