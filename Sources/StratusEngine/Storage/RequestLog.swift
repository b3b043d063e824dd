import Foundation
import GRDB
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

    public init(id: Int64 = 0, time: Date, user: String?, container: String, database: String, endpoint: String,
                status: Int, durationMicroseconds: Int64, error: String?, detail: String? = nil) {
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
    }
}

/// The request log's table: the newest entries only, so a busy server does not grow the store.
enum RequestLogTable {
    static let keptEntries: Int64 = 10_000

    /// What each request did to records (after the v12 migration: migrations run in order).
    static func registerDetail(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-request-log-detail") { db in
            try db.execute(sql: "ALTER TABLE request_log ADD COLUMN detail TEXT")
        }
    }

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-request-log") { db in
            try db.execute(sql: """
                CREATE TABLE request_log (
                    id INTEGER PRIMARY KEY,
                    time INTEGER NOT NULL,
                    user TEXT,
                    container TEXT NOT NULL,
                    database TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    duration_us INTEGER NOT NULL,
                    error TEXT
                );
                """)
        }
    }
}

extension Store {
    /// Appends entries to the request log in one transaction and drops the oldest beyond the
    /// newest 10,000.
    public func appendToRequestLog(_ entries: [RequestLogEntry]) throws {
        guard !entries.isEmpty else { return }
        try write { db in
            let insert = try db.sqlite.cachedStatement(sql: """
                INSERT INTO request_log (time, user, container, database, endpoint, status, duration_us, error, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for entry in entries {
                try insert.execute(arguments: [Int64(entry.time.timeIntervalSince1970 * 1000), entry.user, entry.container, entry.database,
                                               entry.endpoint, entry.status, entry.durationMicroseconds, entry.error, entry.detail])
            }
            try db.sqlite.execute(sql: "DELETE FROM request_log WHERE id <= ?", arguments: [db.sqlite.lastInsertedRowID - RequestLogTable.keptEntries])
        }
    }

    /// Log entries after `id` (nil: the newest `limit`), oldest first.
    public func requestLog(after id: Int64? = nil, limit: Int = 100) throws -> [RequestLogEntry] {
        try read { db in
            let rows: [Row]
            if let id {
                rows = try Row.fetchAll(db.sqlite, sql: "SELECT * FROM request_log WHERE id > ? ORDER BY id LIMIT ?", arguments: [id, limit])
            } else {
                rows = try Row.fetchAll(db.sqlite, sql: "SELECT * FROM (SELECT * FROM request_log ORDER BY id DESC LIMIT ?) ORDER BY id", arguments: [limit])
            }
            return rows.map { row in
                RequestLogEntry(id: row["id"], time: Date(timeIntervalSince1970: Double(row["time"] as Int64) / 1000), user: row["user"],
                                container: row["container"], database: row["database"], endpoint: row["endpoint"],
                                status: row["status"], durationMicroseconds: row["duration_us"], error: row["error"], detail: row["detail"])
            }
        }
    }
}
