import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// A store in a PostgreSQL schema: the team backend, implementing the engine's storage
/// protocols as the SQLite store does, for several `stratus` processes (servers) on one
/// database. Reads run under REPEATABLE READ (one snapshot per read); writes under READ
/// COMMITTED with the zones they touch locked (``PostgresTransaction``). A write that meets a
/// serialization failure, a deadlock or a key another writer took first runs again, a bounded
/// number of times, so callers never see them.
package final class PostgresBackend: StorageBackend, @unchecked Sendable {
    /// The URL with its password masked: the location shows in messages.
    package let location: String
    package let info: StoreInfo
    /// The database is a standby (a streaming replica in recovery): it serves reads only.
    package let isReadOnly: Bool
    private let pool: PostgresPool
    private let rowsCounted = NSLock()
    private var rowsReadSoFar = 0
    private var statementsSoFar = 0
    /// Something that lives as long as the store is open (set before the store is shared): a
    /// test's throwaway schema, dropped when the last store on it goes away.
    package var lease: AnyObject?

    /// Whether queries can read the `field_value` index: false only on a standby opened while
    /// its primary's store was still on format 2.
    private let hasFieldIndex: Bool
    /// The connection that hears other processes' commits, started by the first live view.
    private var listener: PostgresListener?
    private let listenerLock = NSLock()

    /// How many times a write runs before its conflict is reported.
    static let attempts = 10

    /// Opens the store at `location`; a missing one is made (in `environment`) when `creating`,
    /// and refused with `storeNotFound` otherwise.
    package init(location: PostgresLocation, creating: Bool, environment: StoreEnvironment?) throws {
        self.location = location.masked
        let pool = PostgresPool(location: location)
        self.pool = pool
        let link = try pool.take()
        defer { pool.give(link) }
        isReadOnly = try link.rows("SELECT pg_is_in_recovery()").first?.bool(0) ?? false
        if try !Self.schemaExists(location.schema, on: link) {
            guard creating else {
                throw CloudKitError(.badDatabase, "No store at \(location.masked).", reason: .storeNotFound(path: location.masked))
            }
            try Self.make(location, environment: environment, on: link)
        }
        hasFieldIndex = try Self.upgrade(location, standby: isReadOnly, on: link) >= 3
        guard let info = try PostgresSchemaStorage(db: PostgresTransaction(link: link, isWriter: false)).storeInfo() else {
            throw CloudKitError(.badDatabase, "The schema \(location.schema) at \(location.masked) is not a Stratus store (it has no store info).")
        }
        self.info = info
    }

    /// Removes the store's schema and everything in it (tests; `stratus` has no command for it).
    package static func drop(_ location: PostgresLocation) throws {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        try link.script("DROP SCHEMA IF EXISTS \"\(location.schema)\" CASCADE")
    }

    /// Whether a store exists at `location` (its schema does).
    package static func exists(_ location: PostgresLocation) throws -> Bool {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        return try schemaExists(location.schema, on: link)
    }

    /// The TLS version a new connection to `location` speaks (`TLSv1.3`), or nil when it is not
    /// encrypted: what the server itself reports for the connection (`pg_stat_ssl`).
    package static func encryption(of location: PostgresLocation) throws -> String? {
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        let row = try link.rows("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first
        guard let row, try row.bool(0) else { return nil }
        return try row.optionalString(1)
    }

    /// Closes the store's idle connections (and its listening one) now rather than when it is freed.
    package func close() {
        listenerLock.lock()
        let listening = listener
        listener = nil
        listenerLock.unlock()
        listening?.stop()
        pool.closeAll()
    }

    deinit { listener?.stop() }

    /// Other processes' commits, heard on a connection of its own (LISTEN/NOTIFY) opened by the
    /// first live view and kept while the store is open.
    package var announcements: (any StoreAnnouncements)? {
        listenerLock.lock()
        defer { listenerLock.unlock() }
        if let listener { return listener }
        let started = PostgresListener(location: pool.location)
        started.start(waitingUpTo: 5)
        listener = started
        return started
    }

    package func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try run(writer: false, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ", body)
    }

    package func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if isReadOnly { throw standbyRefusal }
        return try run(writer: true, begin: "BEGIN", body)
    }

    /// A write to a standby, said before PostgreSQL's own refusal (which a transaction's later
    /// statements would hide behind "current transaction is aborted").
    private var standbyRefusal: CloudKitError {
        CloudKitError(.permissionFailure, "The store at \(location) is on a PostgreSQL standby (a read-only replica): it can be read, "
            + "and nothing was written. Write through the primary server's URL.")
    }

    /// The caller begins and commits; what it leaves open is rolled back. Not retried: what it
    /// committed stays committed.
    package func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if isReadOnly { throw standbyRefusal }
        let link = try pool.take()
        let transaction = PostgresTransaction(link: link, isWriter: true)
        defer {
            transaction.rollback()
            pool.give(link)
        }
        do {
            return try body(transaction.store)
        } catch let failure as PostgresFailure {
            throw failure.cloudKitError
        }
    }

    /// A read's opening statement reads the plan with the schema version
    /// (``PostgresTransaction/openingFacts()``), so a read call asks it there.
    package var readsKnowFaultPlan: Bool { true }

    /// Servers on many machines share the plan, so it is asked in the database (a one-row
    /// read), where a file beside the store would reach only one machine's processes.
    /// One statement on its own (no transaction around it: one round trip, not three), asked
    /// before every write call (reads ask inside their own transaction).
    package var faultPlanMayBeArmed: Bool {
        guard let link = try? pool.take() else { return false }
        let before = (rows: link.rowsReceived, statements: link.statementsSent)
        defer {
            count(link, since: before)
            pool.give(link)
        }
        return (try? PostgresFaultStorage(db: PostgresTransaction(link: link, isWriter: false)).anyArmed()) ?? false
    }

    /// `ANALYZE` of the record tables, in the store's schema only, on a connection of its own
    /// outside any transaction: its locks (which only VACUUM and schema changes wait for) last
    /// as long as it does. A standby gets its statistics from its primary.
    package func gatherPlannerStatistics() throws {
        guard !isReadOnly else { return }
        let link = try pool.take()
        defer { pool.give(link) }
        do {
            // A statement a table: a list of tables needs PostgreSQL 11.
            for table in hasFieldIndex ? ["record", "field_value", "tombstone"] : ["record", "tombstone"] {
                try link.run("ANALYZE \(table)")
            }
        } catch let failure as PostgresFailure {
            throw failure.cloudKitError
        }
    }

    /// Nothing to keep apart from the plan itself.
    package func setFaultPlanArmed(_ armed: () throws -> Bool) throws {}

    /// A server's database is never written in place: the bulk write runs as any other.
    package func writingInPlaceWhenEmpty<T>(_ body: (Bool) throws -> T) throws -> T { try body(false) }

    /// Reads the store at another PostgreSQL URL, which must exist; nothing in it is written.
    package func readWithoutOpening<T>(_ location: String, _ body: (StoreTransaction) throws -> T) throws -> T {
        let other = try PostgresBackend(location: PostgresLocation(url: location), creating: false, environment: nil)
        defer { other.close() }
        return try other.read(body)
    }

    /// How many rows PostgreSQL has handed this store's transactions since it opened: a test
    /// reads it around a query to see the query read a page's rows, not the zone's.
    package var rowsRead: Int {
        rowsCounted.lock()
        defer { rowsCounted.unlock() }
        return rowsReadSoFar
    }

    /// How many statements this store's transactions (and its separate asks of the fault plan)
    /// have sent since it opened, each a round trip: a test reads it around a call to see its
    /// round trips.
    package var statementsSent: Int {
        rowsCounted.lock()
        defer { rowsCounted.unlock() }
        return statementsSoFar
    }

    /// Adds what `link` received and sent since it had `before` rows and `sent` statements to
    /// ``rowsRead`` and ``statementsSent``.
    private func count(_ link: PostgresLink, since before: (rows: Int, statements: Int)) {
        rowsCounted.lock()
        rowsReadSoFar += link.rowsReceived - before.rows
        statementsSoFar += link.statementsSent - before.statements
        rowsCounted.unlock()
    }

    /// Runs `body` in a transaction begun by `begin`, again (bounded) when PostgreSQL reports a
    /// conflict with another writer.
    private func run<T>(writer: Bool, begin: String, _ body: (StoreTransaction) throws -> T) throws -> T {
        var attempt = 1
        while true {
            let link = try pool.take()
            let before = (rows: link.rowsReceived, statements: link.statementsSent)
            defer { count(link, since: before) }
            let transaction = PostgresTransaction(link: link, isWriter: writer)
            transaction.hasFieldIndex = hasFieldIndex
            do {
                try transaction.begin(begin)
                let result = try body(transaction.store)
                try transaction.commit()
                pool.give(link)
                return result
            } catch let failure as PostgresFailure {
                transaction.rollback()
                pool.give(link)
                guard failure.isRetryable, attempt < Self.attempts else { throw failure.cloudKitError }
                attempt += 1
            } catch {
                transaction.rollback()
                pool.give(link)
                throw error
            }
        }
    }

    /// Brings a store made by an earlier Stratus to this format, in one transaction that holds
    /// the store info row, so servers starting together upgrade it once; refuses a newer one.
    /// A standby cannot be written: it is upgraded by its primary, through replication.
    /// Returns the store's format from now on.
    private static func upgrade(_ location: PostgresLocation, standby: Bool, on link: PostgresLink) throws -> Int {
        let found = try link.integer("SELECT format_version FROM store_info WHERE id = 1")
        guard let found, found != PostgresTables.formatVersion else { return PostgresTables.formatVersion }
        guard found < PostgresTables.formatVersion else {
            throw CloudKitError(.incompatibleVersion, "The store at \(location.masked) was made by a newer Stratus (store format \(found); this build reads up to \(PostgresTables.formatVersion)). Upgrade Stratus to open it.")
        }
        guard !standby else { return Int(found) }
        let transaction = PostgresTransaction(link: link, isWriter: true)
        do {
            try transaction.begin()
            let current = try link.integer("SELECT format_version FROM store_info WHERE id = 1 FOR UPDATE") ?? found
            if current < PostgresTables.formatVersion {
                for version in (Int(current) + 1)...PostgresTables.formatVersion {
                    if let script = PostgresTables.upgrades[version] { try link.script(script) }
                    if version == 3 { try PostgresFieldIndex(db: transaction).buildAll() }
                }
                try link.run("UPDATE store_info SET format_version = $1 WHERE id = 1", [PostgresTables.formatVersion])
            }
            try transaction.commit()
            return PostgresTables.formatVersion
        } catch {
            transaction.rollback()
            throw (error as? PostgresFailure)?.cloudKitError ?? error
        }
    }

    private static func schemaExists(_ schema: String, on link: PostgresLink) throws -> Bool {
        try !link.rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).isEmpty
    }

    /// Makes the store's schema, tables and first rows in one transaction; a process that made
    /// it first wins and this one opens theirs.
    private static func make(_ location: PostgresLocation, environment: StoreEnvironment?, on link: PostgresLink) throws {
        let transaction = PostgresTransaction(link: link, isWriter: true)
        do {
            try transaction.begin()
            try link.script(PostgresTables.create(schema: location.schema))
            let info = NewStore.info(formatVersion: PostgresTables.formatVersion, environment: environment)
            try link.run("""
                INSERT INTO store_info (id, uuid, format_version, environment, owner, created_at) VALUES (1, $1, $2, $3, $4, $5)
                """, [info.uuid.uuidString, info.formatVersion, info.environment.rawValue, info.owner, FieldValue.milliseconds(Date())])
            for scope in DatabaseScope.allCases {
                try link.run("INSERT INTO database_state (scope, change_seq) VALUES ($1, 0)", [scope.rawValue])
            }
            try link.run("INSERT INTO zone (scope, owner, name) VALUES ($1, $2, $3)",
                         [DatabaseScope.public.rawValue, ZoneID.defaultOwnerName, ZoneID.defaultZoneName])
            try NewStore.addFirstRows(owner: info.owner, in: transaction.store)
            try transaction.commit()
        } catch let failure as PostgresFailure where ["42P06", "23505"].contains(failure.sqlState ?? "") {
            transaction.rollback()
        } catch {
            transaction.rollback()
            throw (error as? PostgresFailure)?.cloudKitError ?? error
        }
        try link.script("SET search_path TO \"\(location.schema)\"")
    }
}
