import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The server's tables, each made by its own migration (they run in the order registered).
extension SQLiteServerStorage {
    /// Credentials are stored as their SHA-256, so a copy of the store file does not hand out sessions.
    static func registerCredentials(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-server-credentials") { db in
            try db.execute(sql: """
                CREATE TABLE server_credential (
                    digest TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    container TEXT NOT NULL,
                    user TEXT,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v7-server-keys") { db in
            try db.execute(sql: """
                CREATE TABLE server_key (
                    key_id TEXT PRIMARY KEY,
                    container TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    user TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }

    /// What each request did to records (after the v12 migration: migrations run in order).
    static func registerRequestLogDetail(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-request-log-detail") { db in
            try db.execute(sql: "ALTER TABLE request_log ADD COLUMN detail TEXT")
        }
    }

    /// The request log's table: the newest entries only, so a busy server does not grow the store.
    static func registerRequestLog(in migrator: inout DatabaseMigrator) {
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

    /// The bodies of the newest requests, apart from their log entries (they are larger).
    static func registerRequestBodies(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-request-bodies") { db in
            try db.execute(sql: "CREATE TABLE request_body (id INTEGER PRIMARY KEY, request TEXT NOT NULL, response TEXT NOT NULL)")
        }
    }

    /// The push tokens' table (see ``PushToken``).
    static func registerPushTokens(in migrator: inout DatabaseMigrator) {
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
