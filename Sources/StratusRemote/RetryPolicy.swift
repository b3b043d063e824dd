/// How a client waits out `THROTTLED` (429) and `TRY_AGAIN_LATER` (503): as long as the answer's
/// `retryAfter` (or `Retry-After` header) says, a bounded number of times, and never longer than
/// `longestWait` at once; past either bound the error is the caller's, with its `retryAfter`.
public struct RetryPolicy: Sendable, Hashable {
    public var attempts: Int
    public var longestWait: Double

    public init(attempts: Int = 3, longestWait: Double = 30) {
        self.attempts = attempts
        self.longestWait = longestWait
    }

    /// No retries: the error at once (a dashboard shows it; a test sees it).
    public static let never = RetryPolicy(attempts: 0, longestWait: 0)
}
