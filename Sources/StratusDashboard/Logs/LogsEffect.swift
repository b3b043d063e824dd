import StratusEngine

/// The Logs tab's poll.
enum LogsEffect: Sendable {
    /// Polls the store's request log every ``LogsTabState/pollInterval`` until cancelled.
    case watch(job: Int, afterID: Int64?)
    /// Reads the bodies kept for the logged request `entry`.
    case loadBodies(entry: RequestLogEntry)
}
