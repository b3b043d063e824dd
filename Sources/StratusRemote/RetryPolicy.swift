import Foundation
import StratusCloud
import StratusEngine

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

extension RetryPolicy {
    /// Runs `call`, waiting out a throttling error it throws (`requestRateLimited`, `zoneBusy`,
    /// `serviceUnavailable` with a `retryAfter`) under this policy: what a per-zone error inside a
    /// 200 answer (`changes/zone`) needs, which the client's own retry of 429 and 503 answers
    /// never sees. `waiting` is told of each wait first.
    public func retrying<T>(_ call: () throws -> T, waiting: (CKWSClient.RetryWait) -> Void) throws -> T {
        var attempt = 0
        while true {
            do {
                return try call()
            } catch let error as CloudKitError {
                guard RetryPolicy.throttling.contains(error.code), let seconds = error.retryAfter, attempt < attempts, seconds <= longestWait else {
                    throw error
                }
                attempt += 1
                waiting(CKWSClient.RetryWait(code: error.code.name, seconds: seconds, attempt: attempt, attempts: attempts))
                Thread.sleep(forTimeInterval: max(0, seconds))
            }
        }
    }

    /// The errors that say "not now" rather than "no".
    static let throttling: Set<CloudKitError.Code> = [.requestRateLimited, .zoneBusy, .serviceUnavailable]
}
