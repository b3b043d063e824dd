import CSQLiteSetup
import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The SQLite file under a ``Store``: opening it (WAL pool, PRAGMAs, the checks that refuse
/// files that are not stores, migrations, the first rows of a new store), its transactions,
/// and SQLite's errors said in CloudKit's words.
///
/// `Store` keeps the engine's side (its identity, users, the schema cache); everything that
/// knows the store is an SQLite file lives here, so another backend replaces this type.
package final class SQLiteStoreFile: StorageBackend {
    /// Where the file lives.
    let path: String
    package let pool: DatabasePool
    /// Set when the file could only be opened for reading; writes are refused up front.
    let readOnly: ReadOnlyStore?
    /// The `store_info` row as the file was opened (made for a new store).
    package let info: StoreInfo

    /// SQLite's process-wide options (no per-connection mutex, no memory statistics), set once
    /// before the process's first connection; false when SQLite was already in use. A bulk
    /// write spent 6% of its time locking and unlocking them.
    static let sqliteConfigured = stratus_sqlite_configure() == 0

    /// The most the writing connection maps, whatever readers map: 128 MiB.
    package static let writerMemoryMapBytes = 134_217_728

    /// Opens the file at `path`, making it (with `environment`) if it does not exist yet; see
    /// ``Store/init(path:creatingWith:memoryMapBytes:upgrading:)``.
    init(path: String, creatingWith environment: StoreEnvironment?, memoryMapBytes: Int, upgrading: (() -> Void)?) throws {
        _ = SQLiteStoreFile.sqliteConfigured
        self.path = path
        let url = URL(fileURLWithPath: path)
        try SQLiteStoreFile.checkLooksLikeSQLite(url)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(15)
        configuration.prepareDatabase { db in
            db.add(function: SQLFunctions.distance)
            // Reads map the file instead of copying pages through pread: index lookups that
            // jump around a large store cost far less. The writer maps less: the pages a bulk
            // write reads would otherwise all count as the process's resident memory.
            let bytes = db.configuration.readonly ? memoryMapBytes : min(memoryMapBytes, SQLiteStoreFile.writerMemoryMapBytes)
            try db.execute(sql: "PRAGMA mmap_size = \(max(0, bytes))")
        }
        let readOnly = ReadOnlyStore(path: path)
        configuration.readonly = readOnly != nil
        self.readOnly = readOnly
        do {
            (pool, info) = try SQLiteStoreFile.open(path: path, configuration: configuration, readOnly: readOnly, environment: environment,
                                                    upgrading: upgrading)
        } catch let error as CloudKitError {
            throw error
        } catch let error as DatabaseError {
            throw SQLiteStoreFile.describe(error, path: path)
        }
    }

    // MARK: - Transactions

    package var location: String { path }

    package var isReadOnly: Bool { readOnly != nil }

    /// One read transaction. It begins and ends with statements prepared once per connection:
    /// GRDB's `read` prepares its `BEGIN` and `COMMIT` anew each time, which cost a server
    /// request more than some of its queries.
    package func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try described {
            try pool.unsafeRead { db in
                try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
                // Whatever happens, the connection goes back to the pool outside a transaction.
                do {
                    let value = try body(SQLiteTransaction(sqlite: db).store)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return value
                } catch {
                    if !db.isInsideTransaction { throw error }
                    try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
                    throw error
                }
            }
        }
    }

    package func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if let readOnly { throw readOnly.writeRefusal }
        return try described { try pool.write { db in try body(SQLiteTransaction(sqlite: db).store) } }
    }

    /// Writes outside a transaction, for a caller that begins and commits as it goes.
    package func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if let readOnly { throw readOnly.writeRefusal }
        return try described { try pool.writeWithoutTransaction { db in try body(SQLiteTransaction(sqlite: db).store) } }
    }

    package func readWithoutOpening<T>(_ location: String, _ body: (StoreTransaction) throws -> T) throws -> T {
        try SQLiteStoreFile.readWithoutOpening(path: location) { db in try body(db.store) }
    }

    /// Runs `work`, its SQLite errors said in CloudKit's words.
    func described<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as DatabaseError {
            throw SQLiteStoreFile.describe(error, path: path)
        }
    }

    /// Reads another store file without opening it as a store: a read-only connection, no
    /// upgrade, no WAL switch, so the file stays as it was. `body` runs only on a store this
    /// build has brought up to date.
    static func readWithoutOpening<T>(path: String, _ body: (SQLiteTransaction) throws -> T) throws -> T {
        _ = sqliteConfigured
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try db.tableExists("store_info") else {
                    throw CloudKitError(.badDatabase, "\(path) is not a Stratus store.")
                }
                guard try StoreMigrations.migrator.hasCompletedMigrations(db) else {
                    throw CloudKitError(.incompatibleVersion, "\(path) was made by another version of Stratus; open it once with this one, then compare.")
                }
                return try body(SQLiteTransaction(sqlite: db))
            }
        } catch let error as CloudKitError {
            throw error
        } catch let error as DatabaseError {
            throw describe(error, path: path)
        }
    }

    // MARK: - Opening

    /// Opens the pool, checks the file and brings it up to date; a read-only store that SQLite
    /// cannot open the usual way (no `-shm` file, and no right to make one) is opened immutable.
    private static func open(path: String, configuration: Configuration, readOnly: ReadOnlyStore?,
                             environment: StoreEnvironment?, upgrading: (() -> Void)?) throws -> (DatabasePool, StoreInfo) {
        guard let readOnly else {
            return try open(sqlitePath: path, filePath: path, configuration: configuration, readOnly: false, environment: environment,
                            upgrading: upgrading)
        }
        do {
            return try open(sqlitePath: path, filePath: path, configuration: configuration, readOnly: true, environment: environment)
        } catch let error as DatabaseError where [.SQLITE_READONLY, .SQLITE_CANTOPEN].contains(error.resultCode) {
            guard !readOnly.walHasChanges else { throw readOnly.unreadChangesRefusal }
            return try open(sqlitePath: readOnly.immutableURI, filePath: path, configuration: configuration, readOnly: true, environment: environment)
        }
    }

    /// Opens the pool on `sqlitePath` (the file, or an SQLite URI naming `filePath`). Processes
    /// that open a new store at the same moment can meet SQLITE_BUSY while one of them switches
    /// the file to WAL mode, where SQLite does not wait on the busy handler; and GRDB can find
    /// the `-wal` file gone between two looks at it when another process closes. Those attempts
    /// are retried, briefly.
    private static func open(sqlitePath: String, filePath path: String, configuration: Configuration, readOnly: Bool,
                             environment: StoreEnvironment?, upgrading: (() -> Void)? = nil) throws -> (DatabasePool, StoreInfo) {
        var attempt = 0
        while true {
            do {
                // Look before opening for real: opening a pool turns the file to WAL mode, which
                // must not happen to an SQLite file that is not a store.
                try SQLiteStoreFile.checkExistingFile(sqlitePath: sqlitePath, filePath: path)
                let pool = try DatabasePool(path: sqlitePath, configuration: configuration)
                try pool.read { db in try SQLiteStoreFile.checkIsStratusStore(db) }
                if readOnly {
                    let info = try pool.read { db -> StoreInfo in
                        guard try StoreMigrations.migrator.hasCompletedMigrations(db), let info = try SQLiteSchemaStorage(db: SQLiteTransaction(sqlite: db)).storeInfo() else {
                            throw CloudKitError(.permissionFailure, "The store at \(path) is read-only and needs upgrading to this version of Stratus; make it writable and open it once.")
                        }
                        return info
                    }
                    return (pool, info)
                }
                if let upgrading, try pool.read({ db in
                    try db.tableExists("store_info") && !StoreMigrations.migrator.hasCompletedMigrations(db)
                }) {
                    upgrading()
                }
                try SQLiteStoreFile.migrate(pool)
                let info = try pool.write { db -> StoreInfo in
                    try SQLiteStoreFile.initialize(SQLiteTransaction(sqlite: db), environment: environment)
                }
                return (pool, info)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 40 {
                attempt += 1
                usleep(UInt32(min(attempt, 8)) * 25_000)
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile && attempt < 40 {
                // GRDB reads the size of the -wal file after seeing it exist; another process
                // closing its last connection deletes the file in between. Opening again sees
                // the file as it now is.
                attempt += 1
                usleep(UInt32(min(attempt, 8)) * 25_000)
            }
        }
    }

    /// Runs the migrations. GRDB reads which are applied outside their transactions, so two
    /// processes opening a new store at once can both start the same one: the later one's
    /// transaction fails ("table ... already exists") and rolls back, and running the migrator
    /// again finds that migration applied.
    private static func migrate(_ pool: DatabasePool) throws {
        var attempt = 0
        while true {
            do {
                return try StoreMigrations.migrator.migrate(pool)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && attempt < 5 {
                attempt += 1
            }
        }
    }

    private static func checkLooksLikeSQLite(_ url: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw CloudKitError(.badDatabase, "\(url.path) is a folder, not a store file.", reason: .storePathIsFolder(path: url.path))
        }
        // Read outside SQLite's locks: another process making this store may be writing its first
        // page right now, and a read can see that write half done. A header that does not match
        // is read again a few times before the file is refused.
        for attempt in 1...5 {
            guard let handle = try? FileHandle(forReadingFrom: url) else { return }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            try? handle.close()
            if header.isEmpty || header == Data("SQLite format 3\0".utf8) { return }
            if attempt < 5 { usleep(20_000) }
        }
        throw CloudKitError(.badDatabase, "\(url.path) is not a Stratus store: it is not an SQLite database.",
                            reason: .fileIsNotADatabase(path: url.path))
    }

    /// Checks a file that exists through a read-only connection, which changes nothing in it;
    /// but a file left with a hot rollback journal (a process died inside a transaction written
    /// in place, ``writingInPlaceWhenEmpty(_:)``) is read by a writable one, which rolls that
    /// transaction back first, as SQLite has any opener do. Neither switches to WAL mode.
    private static func checkExistingFile(sqlitePath: String, filePath path: String) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else { return }
        func check(readOnly: Bool) throws {
            var configuration = Configuration()
            configuration.readonly = readOnly
            configuration.busyMode = .timeout(15)
            let queue = try DatabaseQueue(path: sqlitePath, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in try checkIsStratusStore(db) }
        }
        do {
            try check(readOnly: true)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
            try check(readOnly: false)
        }
    }

    /// Refuses SQLite files that are not stores, and stores made by a newer Stratus.
    private static func checkIsStratusStore(_ db: GRDB.Database) throws {
        let transaction = SQLiteTransaction(sqlite: db)
        let hasInfo = try db.tableExists("store_info")
        if !hasInfo {
            let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%'") ?? 0
            guard tableCount == 0 else {
                throw CloudKitError(.badDatabase, "The file is an SQLite database but not a Stratus store; refusing to touch it.")
            }
        } else if let info = try SQLiteSchemaStorage(db: transaction).storeInfo(), info.formatVersion > StoreMigrations.formatVersion {
            throw CloudKitError(.incompatibleVersion, "This store was made by a newer Stratus (store format \(info.formatVersion); this build reads up to \(StoreMigrations.formatVersion)). Upgrade Stratus to open it.")
        }
    }

    private static func initialize(_ db: SQLiteTransaction, environment: StoreEnvironment?) throws -> StoreInfo {
        if let info = try db.schema.storeInfo() {
            if let environment, environment != info.environment {
                throw CloudKitError(.invalidArguments, "The store already exists as a \(info.environment.rawValue) store; its environment is chosen only when it is made.",
                                    reason: .environmentFixedAtCreation(existing: info.environment))
            }
            return info
        }
        let info = NewStore.info(formatVersion: StoreMigrations.formatVersion, environment: environment)
        try db.sqlite.execute(sql: "INSERT INTO store_info (id, uuid, format_version, environment, owner, created_at) VALUES (1, ?, ?, ?, ?, ?)",
                       arguments: [SQLiteSchemaStorage.uuidBytes(info.uuid), info.formatVersion, info.environment.rawValue, info.owner,
                                   FieldValue.milliseconds(Date())])
        for scope in DatabaseScope.allCases {
            try db.sqlite.execute(sql: "INSERT INTO database_state (scope) VALUES (?)", arguments: [scope.rawValue])
        }
        // One public database for everyone; private databases come with their users.
        try db.sqlite.execute(sql: "INSERT INTO zone (scope, owner, name) VALUES (?, ?, ?)",
                       arguments: [DatabaseScope.public.rawValue, ZoneID.defaultOwnerName, ZoneID.defaultZoneName])
        try NewStore.addFirstRows(owner: info.owner, in: db.store)
        return info
    }

    static func describe(_ error: DatabaseError, path: String) -> CloudKitError {
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return CloudKitError(.badDatabase, "\(path) is not a Stratus store: it is not an SQLite database.", reason: .fileIsNotADatabase(path: path))
        case .SQLITE_CORRUPT:
            return CloudKitError(.badDatabase, "The store at \(path) is damaged (\(error.message ?? "corrupt")); restore it from a copy.")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            // A rollback journal beside a store in WAL mode: an import is filling it in place.
            if FileManager.default.fileExists(atPath: path + "-journal") {
                return CloudKitError(.zoneBusy, "The store at \(path) is being filled by an import in another process, which holds it until it commits; try again when it has finished.")
            }
            return CloudKitError(.zoneBusy, "The store at \(path) is locked by another process (writers wait up to 15 seconds); try again.")
        case .SQLITE_FULL:
            return CloudKitError(.quotaExceeded, "The disk holding \(path) is full; nothing was written. Free some space and try again.")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return CloudKitError(.permissionFailure, "Cannot write the store at \(path) (\(error.message ?? "read-only")); check the file's permissions.")
        default:
            return CloudKitError(.internalError, "SQLite failed on \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }
}
