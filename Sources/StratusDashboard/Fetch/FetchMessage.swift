import StratusCloud

/// What the Fetch tab's effect reports back.
enum FetchMessage: Sendable {
    case progress(job: Int, done: Int, total: Int)
    case finished(job: Int, Result<[FetchRow], CloudKitError>, milliseconds: Int)
}
