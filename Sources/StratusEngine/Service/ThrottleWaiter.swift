/// Waits out a server's throttling (`retryAfter` on a 429 or 503) before a call is sent again.
/// A remote client asks it rather than sleeping itself, so a front end can show the wait and
/// let the user stop it: the command line sleeps, the dashboard counts down in its status line.
public protocol ThrottleWaiter: Sendable {
    /// Waits `seconds` on the calling thread; false when the wait was stopped (the call then
    /// fails with the server's throttling error).
    func wait(seconds: Double) -> Bool
}
