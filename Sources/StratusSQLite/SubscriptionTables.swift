import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The migrations that add subscription and notification storage.
///
/// - `subscription`: one row per subscription, unique per (database, owner, ID).
/// - `subscription_state`: one row whose `version` grows with every change to `subscription`,
///   so a writer knows in one read whether its cached, compiled subscriptions are current, and
///   `count` says whether there are any at all (the write path costs nothing when there are none).
/// - `notification`: in commit order (`seq`); read by (database, owner) from a sequence on.
enum SubscriptionTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-subscriptions") { db in
            try db.execute(sql: """
                CREATE TABLE subscription (
                    id INTEGER PRIMARY KEY,
                    scope INTEGER NOT NULL,
                    owner TEXT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    record_type TEXT,
                    zone_name TEXT,
                    zone_owner TEXT,
                    predicate TEXT,
                    arguments BLOB,
                    options INTEGER NOT NULL DEFAULT 0,
                    info TEXT,
                    created_at INTEGER NOT NULL,
                    UNIQUE (scope, owner, subscription_id)
                );
                CREATE TABLE subscription_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    version INTEGER NOT NULL,
                    count INTEGER NOT NULL
                );
                INSERT INTO subscription_state (id, version, count) VALUES (1, 0, 0);
                CREATE TABLE notification (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    scope INTEGER NOT NULL,
                    owner TEXT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    reason INTEGER,
                    zone_name TEXT,
                    zone_owner TEXT,
                    record_name TEXT,
                    record_type TEXT,
                    fields BLOB,
                    info TEXT,
                    created_at INTEGER NOT NULL,
                    origin_device TEXT NOT NULL,
                    read INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX notification_by_reader ON notification (scope, owner, seq);
                """)
        }
    }
}
