import StratusCloud
import StratusEngine

/// The sync lab's work: the fault plan's poll and changes, compaction and the history line.
enum FaultsEffect: Sendable {
    /// Polls the fault plan every ``FaultsTabState/pollInterval`` until cancelled.
    case watch(job: Int, afterEventID: Int64?)
    /// Reads the plan every ``FaultsTabState/planInterval`` while the dashboard runs, for the
    /// header's warning; reports only a change.
    case watchPlan(job: Int)
    case add(job: Int, Fault)
    /// Removes one fault (nil: all).
    case remove(job: Int, id: Int64?)
    case compactHistory(job: Int, zone: ZoneID, scope: DatabaseScope, before: String?, keep: Int?)
    /// Where the zone's history starts (its oldest valid token), and how its changes spread
    /// over time, for the Changes tab's line.
    case oldestToken(zone: ZoneID, scope: DatabaseScope)
}
