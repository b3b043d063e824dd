import Foundation
import StratusCloud

/// One request the CloudKit Web Services server answered, as `stratus logs` and the
/// dashboard show it.
public struct RequestLogEntry: Sendable, Hashable {
    /// Increasing; `requestLog(after:)` continues from the last one seen.
    public var id: Int64
    public var time: Date
    /// The signed-in user's record name; nil for an anonymous request.
    public var user: String?
    public var container: String
    public var database: String
    /// `records/query`, `zones/list` ...
    public var endpoint: String
    public var status: Int
    public var durationMicroseconds: Int64
    /// `serverErrorCode: reason` of a failed request.
    public var error: String?
    /// What the request did to records, when it wrote any (`saved a, b · deleted c`).
    public var detail: String?
    /// The request's and the response's bodies, kept for the newest requests only; nil when
    /// they were not kept or not read (``Store/requestBodies(of:)`` reads them).
    public var bodies: RequestBodies?

    public init(id: Int64 = 0, time: Date, user: String?, container: String, database: String, endpoint: String,
                status: Int, durationMicroseconds: Int64, error: String?, detail: String? = nil, bodies: RequestBodies? = nil) {
        self.id = id
        self.time = time
        self.user = user
        self.container = container
        self.database = database
        self.endpoint = endpoint
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.error = error
        self.detail = detail
        self.bodies = bodies
    }
}
