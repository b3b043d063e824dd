import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The server's credentials, request log and push tokens in their SQLite tables
/// (``SQLiteServerStorage/registerCredentials(in:)`` and its siblings make them).
struct SQLiteServerStorage: ServerStorage {
    let db: SQLiteTransaction

    func insertCredential(digest: String, kind: String, container: String, user: String?, createdAt: Int64) throws {
        try db.sqlite.execute(sql: "INSERT INTO server_credential (digest, kind, container, user, created_at) VALUES (?, ?, ?, ?, ?)",
                              arguments: [digest, kind, container, user, createdAt])
    }

    func credentialUser(digest: String, kind: String, container: String, anyContainer: String) throws -> String?? {
        let row = try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT user FROM server_credential WHERE digest = ? AND kind = ? AND container IN (?, ?)"),
                                   arguments: [digest, kind, container, anyContainer])
        return row.map { $0["user"] as String? }
    }

    func insertServerKey(keyID: String, container: String, publicKeyPEM: String, user: String, createdAt: Int64) throws {
        try db.sqlite.execute(sql: "INSERT INTO server_key (key_id, container, public_key, user, created_at) VALUES (?, ?, ?, ?, ?)",
                              arguments: [keyID, container, publicKeyPEM, user, createdAt])
    }

    func serverKey(keyID: String, container: String, anyContainer: String) throws -> (publicKeyPEM: String, user: String)? {
        let row = try Row.fetchOne(db.sqlite, sql: "SELECT public_key, user FROM server_key WHERE key_id = ? AND container IN (?, ?)",
                                   arguments: [keyID, container, anyContainer])
        return row.map { ($0["public_key"], $0["user"]) }
    }

    func appendToRequestLog(_ entries: [RequestLogEntry], keeping: Int64, keepingBodies: Int64) throws {
        let insert = try db.sqlite.cachedStatement(sql: """
            INSERT INTO request_log (time, user, container, database, endpoint, status, duration_us, error, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var last: Int64 = 0
        var withBodies = false
        for entry in entries {
            try insert.execute(arguments: [Int64(entry.time.timeIntervalSince1970 * 1000), entry.user, entry.container, entry.database,
                                           entry.endpoint, entry.status, entry.durationMicroseconds, entry.error, entry.detail])
            last = db.sqlite.lastInsertedRowID
            if let bodies = entry.bodies {
                try db.sqlite.execute(sql: "INSERT INTO request_body (id, request, response) VALUES (?, ?, ?)",
                                      arguments: [last, bodies.request, bodies.response])
                withBodies = true
            }
        }
        try db.sqlite.execute(sql: "DELETE FROM request_log WHERE id <= ?", arguments: [last - keeping])
        if withBodies {
            try db.sqlite.execute(sql: """
                DELETE FROM request_body WHERE id < (SELECT id FROM request_body ORDER BY id DESC LIMIT 1 OFFSET ?)
                """, arguments: [keepingBodies - 1])
        }
    }

    func requestBodies(of id: Int64) throws -> RequestBodies? {
        try Row.fetchOne(db.sqlite, sql: "SELECT request, response FROM request_body WHERE id = ?", arguments: [id])
            .map { RequestBodies(request: $0["request"], response: $0["response"]) }
    }

    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry] {
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

    func insertPushToken(_ token: String, container: String, user: String, apnsEnvironment: String, createdAt: Int64) throws -> PushToken {
        let start = try Int64.fetchOne(db.sqlite, sql: "SELECT coalesce(max(seq), 0) FROM notification") ?? 0
        try db.sqlite.execute(sql: "INSERT INTO push_token (token, container, user, apns_environment, delivered_seq, start_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                              arguments: [token, container, user, apnsEnvironment, start, start, createdAt])
        return PushToken(token: token, container: container, user: user, apnsEnvironment: apnsEnvironment, isRegistered: false,
                         deliveredSequence: start, startSequence: start)
    }

    func registerPushToken(_ token: String, user: String) throws -> Bool {
        try db.sqlite.execute(sql: "UPDATE push_token SET registered = 1 WHERE token = ? AND user = ?", arguments: [token, user])
        return db.sqlite.changesCount > 0
    }

    func pushToken(_ token: String) throws -> PushToken? {
        try Row.fetchOne(db.sqlite, sql: "SELECT * FROM push_token WHERE token = ?", arguments: [token]).map { row in
            PushToken(token: row["token"], container: row["container"], user: row["user"], apnsEnvironment: row["apns_environment"],
                      isRegistered: row["registered"], deliveredSequence: row["delivered_seq"], startSequence: row["start_seq"])
        }
    }

    func markPushDelivered(_ token: String, upTo sequence: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE push_token SET delivered_seq = max(delivered_seq, ?) WHERE token = ?", arguments: [sequence, token])
    }
}
