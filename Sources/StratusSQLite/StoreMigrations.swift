import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The versioned SQL schema of a store file. Each migration runs once, in a transaction.
enum StoreMigrations {
    /// The store format this build writes; a file with a larger one was made by a newer Stratus.
    static let formatVersion = 2

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE store_info (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    uuid BLOB NOT NULL,
                    format_version INTEGER NOT NULL,
                    environment TEXT NOT NULL,
                    owner TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    schema_version INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE database_state (
                    scope INTEGER PRIMARY KEY,
                    change_seq INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE zone (
                    id INTEGER PRIMARY KEY,
                    scope INTEGER NOT NULL,
                    owner TEXT NOT NULL,
                    name TEXT NOT NULL,
                    incarnation INTEGER NOT NULL DEFAULT 1,
                    change_seq INTEGER NOT NULL DEFAULT 0,
                    db_seq INTEGER NOT NULL DEFAULT 0,
                    state INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (scope, owner, name)
                );
                CREATE INDEX zone_database_changes ON zone (scope, db_seq);
                CREATE TABLE record_type (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    system_indexes TEXT NOT NULL
                );
                CREATE TABLE schema_field (
                    id INTEGER PRIMARY KEY,
                    type_id INTEGER NOT NULL REFERENCES record_type (id),
                    name TEXT NOT NULL,
                    field_type TEXT NOT NULL,
                    indexes INTEGER NOT NULL,
                    UNIQUE (type_id, name)
                );
                CREATE TABLE record (
                    id INTEGER PRIMARY KEY,
                    zone_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    type_id INTEGER NOT NULL,
                    fields BLOB NOT NULL,
                    change_tag TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    created_by TEXT NOT NULL,
                    modified_at INTEGER NOT NULL,
                    modified_by TEXT NOT NULL,
                    parent TEXT,
                    size INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX record_by_name ON record (zone_id, name);
                CREATE INDEX record_by_change ON record (zone_id, seq);
                CREATE INDEX record_by_modified ON record (zone_id, type_id, modified_at);
                CREATE INDEX record_by_created ON record (zone_id, type_id, created_at);
                CREATE TABLE tombstone (
                    zone_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    type_id INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    PRIMARY KEY (zone_id, name)
                );
                CREATE INDEX tombstone_by_change ON tombstone (zone_id, seq);
                CREATE TABLE field_value (
                    zone_id INTEGER NOT NULL,
                    field_id INTEGER NOT NULL,
                    value NOT NULL,
                    record_id INTEGER NOT NULL,
                    folded TEXT,
                    PRIMARY KEY (zone_id, field_id, value, record_id)
                ) WITHOUT ROWID;
                CREATE INDEX field_value_by_folded ON field_value (zone_id, field_id, folded, record_id)
                    WHERE folded IS NOT NULL;
                CREATE VIRTUAL TABLE location_index USING rtree (
                    id, min_latitude, max_latitude, min_longitude, max_longitude,
                    +zone_id, +field_id, +record_id
                );
                CREATE TABLE reference_edge (
                    zone_id INTEGER NOT NULL,
                    target TEXT NOT NULL,
                    source_id INTEGER NOT NULL,
                    PRIMARY KEY (zone_id, target, source_id)
                ) WITHOUT ROWID;
                CREATE VIRTUAL TABLE record_text USING fts5 (tokens, tokenize = 'ascii', detail = none);
                CREATE TABLE asset (
                    checksum TEXT PRIMARY KEY,
                    size INTEGER NOT NULL,
                    data BLOB NOT NULL
                );
                """)
        }
        SubscriptionTables.register(in: &migrator)
        SchemaLanguageTables.register(in: &migrator)
        migrator.registerMigration("v4-location-codes") { db in
            // Locations leave the R*Tree for Z-order codes in field_value (see ZOrderCode).
            try db.execute(sql: "DROP TABLE location_index")
            try indexLocations(db)
            try db.execute(sql: "UPDATE store_info SET format_version = 2")
        }
        SQLiteServerStorage.registerCredentials(in: &migrator)
        SQLiteServerStorage.registerRequestLog(in: &migrator)
        SQLiteServerStorage.registerPushTokens(in: &migrator)
        migrator.registerMigration("v9-history-compaction") { db in
            // Where each zone's change history was compacted (see CloudDatabase.compactHistory).
            try db.execute(sql: "ALTER TABLE zone ADD COLUMN compacted_seq INTEGER NOT NULL DEFAULT 0")
        }
        SQLiteUserStorage.register(in: &migrator)
        SQLiteShareStorage.register(in: &migrator)
        migrator.registerMigration("v12-changed-keys") { db in
            // The fields each record's last change set or removed (see ChangedKeys); NULL: unknown.
            try db.execute(sql: "ALTER TABLE record ADD COLUMN changed_keys TEXT")
        }
        SQLiteServerStorage.registerRequestLogDetail(in: &migrator)
        SQLiteFaultStorage.register(in: &migrator)
        SQLiteFaultStorage.registerClients(in: &migrator)
        SQLiteServerStorage.registerRequestBodies(in: &migrator)
        return migrator
    }

    /// Writes the `field_value` rows of every indexed location field of every record; only
    /// those fields are handed to the indexer, so no other index row is written twice. It uses
    /// today's catalog, decoder and indexer: a later migration that changes what they read
    /// must come after this one or carry its own copy.
    private static func indexLocations(_ sqlite: GRDB.Database) throws {
        let db = SQLiteTransaction(sqlite: sqlite)
        let catalog = try SchemaCatalog.load(db.store, version: 0)
        for entry in catalog.types.values {
            let names = Set(entry.schema.fields.values.filter { $0.type.base == .location && ($0.isQueryable || $0.isSortable) }.map(\.name))
            guard !names.isEmpty else { continue }
            var locationsOnly = entry
            locationsOnly.schema.fields = entry.schema.fields.filter { names.contains($0.key) }
            // One pass over the type's records, the rows held back and written in key order.
            let buffer = IndexRowBuffer(db: db, limit: RecordImporter.indexRowLimit)
            let rows = try Row.fetchCursor(sqlite, sql: "SELECT \(SQLiteRecordStorage.columns) FROM record WHERE type_id = ?", arguments: [entry.id])
            while let row = try rows.next() {
                let stored = StoredRecord(row: row)
                // A record whose fields cannot be read fails wherever it is read; it must not
                // keep the whole store from opening.
                guard let all = try? stored.fields() else { continue }
                try RecordIndexer(db: db, zoneRowID: stored.zoneRowID, type: locationsOnly, buffer: buffer)
                    .add(recordID: stored.id, fields: all.filter { names.contains($0.key) })
            }
            try buffer.flush()
        }
    }
}
