import Foundation
import StratusCloud

extension Store {
    /// How many of the newest entries the log keeps, so a busy server does not grow the store.
    static let keptRequestLogEntries: Int64 = 10_000
    /// How many of the newest requests keep their bodies (they are larger than their entries).
    public static let keptRequestBodies = 200

    /// Appends entries to the request log in one transaction and drops the oldest beyond the
    /// newest 10,000.
    public func appendToRequestLog(_ entries: [RequestLogEntry]) throws {
        guard !entries.isEmpty else { return }
        try write { db in
            try db.server.appendToRequestLog(entries, keeping: Store.keptRequestLogEntries, keepingBodies: Int64(Store.keptRequestBodies))
        }
    }

    /// The bodies of the logged request `id`; nil when they were not kept (an older request).
    public func requestBodies(of id: Int64) throws -> RequestBodies? {
        try read { db in try db.server.requestBodies(of: id) }
    }

    /// Log entries after `id` (nil: the newest `limit`), oldest first.
    public func requestLog(after id: Int64? = nil, limit: Int = 100) throws -> [RequestLogEntry] {
        try read { db in try db.server.requestLog(after: id, limit: limit) }
    }
}
