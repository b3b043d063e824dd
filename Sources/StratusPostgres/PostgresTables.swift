/// The tables of a PostgreSQL store, in its own schema, modelled on the SQLite store's (see
/// `StratusSQLite/StoreMigrations.swift`): the same rows, with PostgreSQL's types. Text that
/// the engine orders is `COLLATE "C"` (code point order, as SQLite compares). A record keeps
/// its full-text tokens (the engine's tokenizer's, as `text[]` under a GIN index) beside it;
/// its QUERYABLE and SORTABLE values are rows of `field_value` (``fieldIndex``), which queries
/// read in index order.
///
/// Concurrency rests on two kinds of counter row: the `zone` row itself (a write transaction
/// reads the zones it writes `FOR UPDATE`, so the writers of one zone take turns from their first
/// read to their commit, and a zone's change sequence follows commit order), and the
/// `database_state` row of each database, moved on by `UPDATE ... RETURNING` and held to commit,
/// so database change tokens follow commit order too.
enum PostgresTables {
    /// The store format this backend writes.
    static let formatVersion = 3

    /// What turns a store of the format before each version into that version, applied in
    /// order when an older store opens (``PostgresBackend``).
    static let upgrades: [Int: String] = [
        2: "CREATE TABLE IF NOT EXISTS request_body (id bigint PRIMARY KEY, request text NOT NULL, response text NOT NULL)",
        // The rows of the records already there are written by ``PostgresFieldIndex/buildAll()``.
        3: fieldIndex,
    ]

    /// The index of field values queries read (``PostgresFieldIndex``, ``PostgresIndexColumns``)
    /// and the index of creation times, which SQLite has had from the start.
    static let fieldIndex = """
        CREATE TABLE IF NOT EXISTS field_value (
            zone_id bigint NOT NULL,
            field_id bigint NOT NULL,
            is_text boolean NOT NULL,
            number numeric NOT NULL,
            text text COLLATE "C" NOT NULL,
            record_id bigint NOT NULL,
            is_real boolean NOT NULL,
            folded text COLLATE "C",
            PRIMARY KEY (zone_id, field_id, is_text, number, text, record_id)
        );
        CREATE INDEX IF NOT EXISTS field_value_by_folded ON field_value (zone_id, field_id, folded, record_id) WHERE folded IS NOT NULL;
        CREATE INDEX IF NOT EXISTS field_value_by_record ON field_value (record_id, field_id);
        CREATE INDEX IF NOT EXISTS record_by_created ON record (zone_id, type_id, created_at, id)
        """

    static func create(schema: String) -> String {
        """
        CREATE SCHEMA "\(schema)";
        SET LOCAL search_path TO "\(schema)";
        CREATE TABLE store_info (
            id bigint PRIMARY KEY CHECK (id = 1),
            uuid text NOT NULL,
            format_version bigint NOT NULL,
            environment text NOT NULL,
            owner text NOT NULL,
            created_at bigint NOT NULL,
            schema_version bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE database_state (
            scope bigint PRIMARY KEY,
            change_seq bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE zone (
            id bigserial PRIMARY KEY,
            scope bigint NOT NULL,
            owner text COLLATE "C" NOT NULL,
            name text COLLATE "C" NOT NULL,
            incarnation bigint NOT NULL DEFAULT 1,
            change_seq bigint NOT NULL DEFAULT 0,
            db_seq bigint NOT NULL DEFAULT 0,
            state bigint NOT NULL DEFAULT 0,
            compacted_seq bigint NOT NULL DEFAULT 0,
            UNIQUE (scope, owner, name)
        );
        CREATE INDEX zone_database_changes ON zone (scope, owner, db_seq);
        CREATE TABLE record_type (
            id bigserial PRIMARY KEY,
            name text COLLATE "C" NOT NULL UNIQUE,
            system_indexes text NOT NULL,
            retired boolean NOT NULL DEFAULT false
        );
        CREATE TABLE schema_field (
            id bigserial PRIMARY KEY,
            type_id bigint NOT NULL,
            name text COLLATE "C" NOT NULL,
            field_type text NOT NULL,
            indexes bigint NOT NULL,
            declared_type text,
            UNIQUE (type_id, name)
        );
        CREATE TABLE schema_grant (
            type_id bigint NOT NULL,
            position bigint NOT NULL,
            permissions text NOT NULL,
            role text NOT NULL,
            PRIMARY KEY (type_id, position)
        );
        CREATE TABLE schema_role (name text COLLATE "C" PRIMARY KEY);
        CREATE TABLE record (
            id bigserial PRIMARY KEY,
            zone_id bigint NOT NULL,
            name text COLLATE "C" NOT NULL,
            type_id bigint NOT NULL,
            fields bytea NOT NULL,
            change_tag text NOT NULL,
            seq bigint NOT NULL,
            created_at bigint NOT NULL,
            created_by text NOT NULL,
            modified_at bigint NOT NULL,
            modified_by text NOT NULL,
            parent text,
            changed_keys text,
            tokens text[] NOT NULL DEFAULT '{}',
            delete_targets text[] NOT NULL DEFAULT '{}',
            UNIQUE (zone_id, name)
        );
        CREATE INDEX record_by_change ON record (zone_id, seq);
        CREATE INDEX record_by_modified ON record (zone_id, type_id, modified_at, id);
        CREATE INDEX record_by_type ON record (type_id, zone_id, id);
        CREATE INDEX record_tokens ON record USING gin (tokens);
        CREATE INDEX record_delete_targets ON record USING gin (delete_targets);
        \(fieldIndex);
        CREATE TABLE tombstone (
            zone_id bigint NOT NULL,
            name text COLLATE "C" NOT NULL,
            type_id bigint NOT NULL,
            seq bigint NOT NULL,
            PRIMARY KEY (zone_id, name)
        );
        CREATE INDEX tombstone_by_change ON tombstone (zone_id, seq);
        CREATE TABLE asset (checksum text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL);
        CREATE TABLE app_user (
            record_name text COLLATE "C" PRIMARY KEY,
            alias text COLLATE "C" NOT NULL,
            roles text[] NOT NULL DEFAULT '{}',
            created_at bigint NOT NULL
        );
        CREATE UNIQUE INDEX app_user_alias ON app_user (lower(alias));
        CREATE TABLE share (
            id bigserial PRIMARY KEY,
            zone_id bigint NOT NULL,
            record_name text COLLATE "C" NOT NULL,
            root_name text COLLATE "C",
            short_guid text NOT NULL,
            public_permission bigint NOT NULL,
            live boolean NOT NULL DEFAULT true
        );
        CREATE TABLE share_participant (
            share_id bigint NOT NULL,
            user_name text COLLATE "C" NOT NULL,
            type bigint NOT NULL,
            permission bigint NOT NULL,
            status bigint NOT NULL,
            db_seq bigint NOT NULL,
            PRIMARY KEY (share_id, user_name)
        );
        CREATE TABLE subscription (
            id bigserial PRIMARY KEY,
            scope bigint NOT NULL,
            owner text COLLATE "C" NOT NULL,
            subscription_id text COLLATE "C" NOT NULL,
            kind bigint NOT NULL,
            record_type text,
            zone_name text,
            zone_owner text,
            predicate text,
            arguments bytea,
            options bigint NOT NULL DEFAULT 0,
            info text,
            created_at bigint NOT NULL,
            UNIQUE (scope, owner, subscription_id)
        );
        CREATE TABLE subscription_state (id bigint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL, count bigint NOT NULL);
        INSERT INTO subscription_state VALUES (1, 0, 0);
        CREATE TABLE notification (
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            scope bigint NOT NULL,
            owner text NOT NULL,
            subscription_id text NOT NULL,
            kind bigint NOT NULL,
            reason bigint,
            zone_name text,
            zone_owner text,
            record_name text,
            record_type text,
            fields bytea,
            info text,
            created_at bigint NOT NULL,
            origin_device text NOT NULL,
            read boolean NOT NULL DEFAULT false
        );
        CREATE INDEX notification_by_reader ON notification (scope, owner, seq);
        CREATE TABLE fault (
            id bigserial PRIMARY KEY,
            kind text NOT NULL,
            scope bigint,
            zone text,
            operation text,
            records text NOT NULL DEFAULT '',
            token text,
            trigger text NOT NULL,
            trigger_n bigint NOT NULL DEFAULT 0,
            probability double precision,
            seed bigint,
            retry_after double precision,
            item_limit bigint,
            other_fields text,
            clients text NOT NULL,
            seen bigint NOT NULL DEFAULT 0,
            fired bigint NOT NULL DEFAULT 0,
            spent boolean NOT NULL DEFAULT false,
            last_fired_at bigint,
            created_at bigint NOT NULL
        );
        CREATE TABLE fault_event (
            id bigserial PRIMARY KEY,
            fault_id bigint NOT NULL,
            time bigint NOT NULL,
            kind text NOT NULL,
            operation text NOT NULL,
            database text NOT NULL,
            zone text,
            message text NOT NULL
        );
        CREATE TABLE server_credential (
            digest text PRIMARY KEY,
            kind text NOT NULL,
            container text NOT NULL,
            user_name text,
            created_at bigint NOT NULL
        );
        CREATE TABLE server_key (
            key_id text PRIMARY KEY,
            container text NOT NULL,
            public_key text NOT NULL,
            user_name text NOT NULL,
            created_at bigint NOT NULL
        );
        CREATE TABLE request_log (
            id bigserial PRIMARY KEY,
            time bigint NOT NULL,
            user_name text,
            container text NOT NULL,
            database text NOT NULL,
            endpoint text NOT NULL,
            status bigint NOT NULL,
            duration_us bigint NOT NULL,
            error text,
            detail text
        );
        CREATE TABLE request_body (id bigint PRIMARY KEY, request text NOT NULL, response text NOT NULL);
        CREATE TABLE push_token (
            token text PRIMARY KEY,
            container text NOT NULL,
            user_name text NOT NULL,
            apns_environment text NOT NULL,
            registered boolean NOT NULL DEFAULT false,
            delivered_seq bigint NOT NULL DEFAULT 0,
            start_seq bigint NOT NULL DEFAULT 0,
            created_at bigint NOT NULL
        );
        """
    }
}
