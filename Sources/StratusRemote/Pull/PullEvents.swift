import Foundation
import StratusCloud

/// What a pull tells its front end as it goes: the command line draws them on standard error.
public struct PullEvents {
    /// A throttled request is about to be waited out.
    public var waiting: (CKWSClient.RetryWait) -> Void
    /// Something the person should know that is not a failure (a zone read again, a zone not read).
    public var note: (String) -> Void
    /// After each page: the counts so far, and the zone (or record type) being pulled.
    public var progress: (PullTally, String) -> Void
    /// A zone (or record type) is done: what, and the counts before and after it.
    public var finished: (String, PullTally, PullTally) -> Void

    public init(waiting: @escaping (CKWSClient.RetryWait) -> Void, note: @escaping (String) -> Void,
                progress: @escaping (PullTally, String) -> Void, finished: @escaping (String, PullTally, PullTally) -> Void) {
        self.waiting = waiting
        self.note = note
        self.progress = progress
        self.finished = finished
    }

    /// Tells nothing (a bench, a test).
    public static var silent: PullEvents { PullEvents(waiting: { _ in }, note: { _ in }, progress: { _, _ in }, finished: { _, _, _ in }) }
}

/// Records the store refused, each with its reason: the pull stopped before their page's token.
public struct PullRefusal: Error {
    public struct Failure: Sendable {
        public var recordName: String
        public var error: CloudKitError
    }

    public var failures: [Failure]
    /// `zone Travel`, `type Note`.
    public var place: String
}
