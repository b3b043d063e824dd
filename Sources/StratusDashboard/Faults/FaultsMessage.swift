import StratusCloud
import StratusEngine

/// What the Faults tab's effects (and compaction) report back.
enum FaultsMessage: Sendable {
    /// The fault plan and the firings since the last poll.
    case polled(job: Int, Result<FaultsSnapshot, CloudKitError>)
    /// A fault was added or removed (what it did, for the status line).
    case changed(job: Int, Result<String, CloudKitError>)
    /// The plan's faults still able to fire, read for the header.
    case plan(job: Int, [Fault])
    case historyCompacted(job: Int, Result<HistoryCompaction, CloudKitError>)
}
