import StratusCloud
import StratusEngine

/// What the Logs tab's poll reports back.
enum LogsMessage: Sendable {
    /// Requests the server logged since the last poll.
    case requestsLogged(job: Int, Result<[RequestLogEntry], CloudKitError>)
    /// The bodies of a logged request; nil when they are no longer kept.
    case bodiesLoaded(entry: RequestLogEntry, Result<RequestBodies?, CloudKitError>)
}
