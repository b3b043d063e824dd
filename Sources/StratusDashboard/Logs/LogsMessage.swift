import StratusCloud
import StratusEngine

/// What the Logs tab's poll reports back.
enum LogsMessage: Sendable {
    /// Requests the server logged since the last poll.
    case requestsLogged(job: Int, Result<[RequestLogEntry], CloudKitError>)
}
