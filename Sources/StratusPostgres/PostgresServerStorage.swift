import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The server's credentials, request log and push tokens in a PostgreSQL store.
struct PostgresServerStorage: ServerStorage {
    let db: PostgresTransaction

    func insertCredential(digest: String, kind: String, container: String, user: String?, createdAt: Int64) throws {
        try db.link.run("INSERT INTO server_credential (digest, kind, container, user_name, created_at) VALUES ($1, $2, $3, $4, $5)",
                        [digest, kind, container, user, createdAt])
    }

    func credentialUser(digest: String, kind: String, container: String, anyContainer: String) throws -> String?? {
        try db.link.rows("SELECT user_name FROM server_credential WHERE digest = $1 AND kind = $2 AND container IN ($3, $4)",
                         [digest, kind, container, anyContainer]).first.map { try $0.optionalString(0) }
    }

    func insertServerKey(keyID: String, container: String, publicKeyPEM: String, user: String, createdAt: Int64) throws {
        try db.link.run("INSERT INTO server_key (key_id, container, public_key, user_name, created_at) VALUES ($1, $2, $3, $4, $5)",
                        [keyID, container, publicKeyPEM, user, createdAt])
    }

    func serverKey(keyID: String, container: String, anyContainer: String) throws -> (publicKeyPEM: String, user: String)? {
        try db.link.rows("SELECT public_key, user_name FROM server_key WHERE key_id = $1 AND container IN ($2, $3)", [keyID, container, anyContainer])
            .first.map { (try $0.string(0), try $0.string(1)) }
    }

    func appendToRequestLog(_ entries: [RequestLogEntry], keeping: Int64, keepingBodies: Int64) throws {
        var last: Int64 = 0
        var withBodies = false
        for entry in entries {
            last = try db.link.integer("""
                INSERT INTO request_log (time, user_name, container, database, endpoint, status, duration_us, error, detail)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
                """, [Int64(entry.time.timeIntervalSince1970 * 1000), entry.user, entry.container, entry.database, entry.endpoint, entry.status,
                      entry.durationMicroseconds, entry.error, entry.detail]) ?? 0
            if let bodies = entry.bodies {
                try db.link.run("INSERT INTO request_body (id, request, response) VALUES ($1, $2, $3)", [last, bodies.request, bodies.response])
                withBodies = true
            }
        }
        try db.link.run("DELETE FROM request_log WHERE id <= $1", [last - keeping])
        db.announce(.requestLog)
        if withBodies {
            try db.link.run("DELETE FROM request_body WHERE id < (SELECT id FROM request_body ORDER BY id DESC LIMIT 1 OFFSET $1)",
                            [keepingBodies - 1])
        }
    }

    func requestBodies(of id: Int64) throws -> RequestBodies? {
        try db.link.rows("SELECT request, response FROM request_body WHERE id = $1", [id])
            .first.map { RequestBodies(request: try $0.string(0), response: try $0.string(1)) }
    }

    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry] {
        let columns = "id, time, user_name, container, database, endpoint, status, duration_us, error, detail"
        let rows = if let id {
            try db.link.rows("SELECT \(columns) FROM request_log WHERE id > $1 ORDER BY id LIMIT $2", [id, limit])
        } else {
            try db.link.rows("SELECT * FROM (SELECT \(columns) FROM request_log ORDER BY id DESC LIMIT $1) AS newest ORDER BY id", [limit])
        }
        return try rows.map { row in
            RequestLogEntry(id: try row.int(0), time: Date(timeIntervalSince1970: Double(try row.int(1)) / 1000), user: try row.optionalString(2),
                            container: try row.string(3), database: try row.string(4), endpoint: try row.string(5), status: Int(try row.int(6)),
                            durationMicroseconds: try row.int(7), error: try row.optionalString(8), detail: try row.optionalString(9))
        }
    }

    func insertPushToken(_ token: String, container: String, user: String, apnsEnvironment: String, createdAt: Int64) throws -> PushToken {
        let start = try db.link.integer("SELECT coalesce(max(seq), 0) FROM notification") ?? 0
        let inserted = try db.link.run("""
            INSERT INTO push_token (token, container, user_name, apns_environment, delivered_seq, start_seq, created_at)
            VALUES ($1, $2, $3, $4, $5, $5, $6) ON CONFLICT (token) DO NOTHING
            """, [token, container, user, apnsEnvironment, start, createdAt])
        guard inserted == 1 else { throw CloudKitError(.constraintViolation, "The push token exists already.") }
        return PushToken(token: token, container: container, user: user, apnsEnvironment: apnsEnvironment, isRegistered: false,
                         deliveredSequence: start, startSequence: start)
    }

    func registerPushToken(_ token: String, user: String) throws -> Bool {
        try db.link.run("UPDATE push_token SET registered = true WHERE token = $1 AND user_name = $2", [token, user]) > 0
    }

    func pushToken(_ token: String) throws -> PushToken? {
        try db.link.rows("""
            SELECT token, container, user_name, apns_environment, registered, delivered_seq, start_seq FROM push_token WHERE token = $1
            """, [token]).first.map { row in
            PushToken(token: try row.string(0), container: try row.string(1), user: try row.string(2), apnsEnvironment: try row.string(3),
                      isRegistered: try row.bool(4), deliveredSequence: try row.int(5), startSequence: try row.int(6))
        }
    }

    func markPushDelivered(_ token: String, upTo sequence: Int64) throws {
        try db.link.run("UPDATE push_token SET delivered_seq = greatest(delivered_seq, $1) WHERE token = $2", [sequence, token])
    }
}
