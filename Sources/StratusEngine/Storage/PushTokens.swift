import Foundation
import GRDB
import StratusCloud

/// Push tokens that `tokens/create` hands out and `tokens/register` registers: the server has
/// no push service, so each token is an address of an outbox of the payloads it would have been
/// sent, read by polling its web courier URL.
public struct PushToken: Sendable, Hashable {
    public var token: String
    public var container: String
    public var user: String
    /// `development` or `production`, as the client asked.
    public var apnsEnvironment: String
    public var isRegistered: Bool
    /// The notification order position (`CloudNotification.sequence`) delivered so far.
    public var deliveredSequence: Int64
    /// The position when the token was made: its outbox holds what came after.
    public var startSequence: Int64
}

enum PushTokenTable {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-push-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE push_token (
                    token TEXT PRIMARY KEY,
                    container TEXT NOT NULL,
                    user TEXT NOT NULL,
                    apns_environment TEXT NOT NULL,
                    registered INTEGER NOT NULL DEFAULT 0,
                    delivered_seq INTEGER NOT NULL DEFAULT 0,
                    start_seq INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}

extension Store {
    /// A new push token for `user` (base64 of 32 random bytes, as APNs tokens look over CKWS);
    /// its outbox starts after the notifications that exist now.
    public func makePushToken(container: String, user: String, apnsEnvironment: String) throws -> PushToken {
        let token = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        return try write { db in
            let start = try Int64.fetchOne(db.sqlite, sql: "SELECT coalesce(max(seq), 0) FROM notification") ?? 0
            try db.sqlite.execute(sql: "INSERT INTO push_token (token, container, user, apns_environment, delivered_seq, start_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [token, container, user, apnsEnvironment, start, start, Int64(Date().timeIntervalSince1970 * 1000)])
            return PushToken(token: token, container: container, user: user, apnsEnvironment: apnsEnvironment, isRegistered: false,
                             deliveredSequence: start, startSequence: start)
        }
    }

    /// Registers a token for its user's notifications; false when the token is unknown or
    /// another user's.
    public func registerPushToken(_ token: String, user: String) throws -> Bool {
        try write { db in
            try db.sqlite.execute(sql: "UPDATE push_token SET registered = 1 WHERE token = ? AND user = ?", arguments: [token, user])
            return db.sqlite.changesCount > 0
        }
    }

    public func pushToken(_ token: String) throws -> PushToken? {
        try read { db in
            try Row.fetchOne(db.sqlite, sql: "SELECT * FROM push_token WHERE token = ?", arguments: [token]).map { row in
                PushToken(token: row["token"], container: row["container"], user: row["user"], apnsEnvironment: row["apns_environment"],
                          isRegistered: row["registered"], deliveredSequence: row["delivered_seq"], startSequence: row["start_seq"])
            }
        }
    }

    /// Records that a token's outbox was read up to `sequence`.
    public func markPushDelivered(_ token: String, upTo sequence: Int64) throws {
        try write { db in
            try db.sqlite.execute(sql: "UPDATE push_token SET delivered_seq = max(delivered_seq, ?) WHERE token = ?", arguments: [sequence, token])
        }
    }
}
