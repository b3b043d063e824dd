import Foundation
import StratusModel
import StratusCloud

/// A local CloudKit container: one SQLite file in WAL mode holding the public, private and
/// shared databases, their zones, records, schema and change history.
///
/// Several processes may open the same file at once (the dashboard while a script writes);
/// SQLite serialises writers and every write is one transaction.
public final class Store: Sendable {
    /// Where the store lives.
    public let path: String
    /// The store's identity; it goes into every token and cursor.
    public let storeID: UUID
    /// The user record name that acts when no other user is named.
    public let owner: String

    /// The SQLite file, its connections and its transactions.
    let file: SQLiteStoreFile
    private let catalogCache = LockedValue<SchemaCatalog?>(nil)
    /// User record names known to have a user row: `database(_:user:)` runs on every query
    /// and request, and a user, once made, is never removed.
    let knownUsers = LockedValue<Set<String>>([])

    /// Opens the store at `path`, making it (with `environment`, default development) if the file
    /// does not exist yet.
    ///
    /// A store that cannot be written here (file or folder permissions, a read-only file system)
    /// opens for reading: queries, fetches and change playback work, and every write fails with
    /// `permissionFailure` naming the file and why it is read-only.
    ///
    /// `upgrading` is called before a store made by an older Stratus is brought up to date,
    /// which rewrites index rows and can take seconds on a large store: a tool can say so.
    ///
    /// - Throws: `CloudKitError` with `badDatabase` when the file is not a Stratus store, or
    ///   `incompatibleVersion` when a newer Stratus made it.
    ///   - memoryMapBytes: how much of the file each reading connection maps (SQLite's `mmap_size`).
    ///     Mapped reads are cheaper for lookups that jump around a large store, but mapped pages
    ///     count as the process's resident memory; a long-lived viewer maps less.
    public init(path: String, creatingWith environment: StoreEnvironment? = nil, memoryMapBytes: Int = Store.defaultMemoryMapBytes,
                upgrading: (() -> Void)? = nil) throws {
        self.path = path
        file = try SQLiteStoreFile(path: path, creatingWith: environment, memoryMapBytes: memoryMapBytes, upgrading: upgrading)
        storeID = file.info.uuid
        owner = file.info.owner
        if !isReadOnly { try? syncFaultMarker() }
    }

    /// What each reading connection maps of the store file unless told otherwise: as much as
    /// SQLite's default build allows (2 GiB less 64 KiB), so a store of a million records is
    /// read through the map, not through `pread` (page 50 of a two-sort query at 1M: 44 ms
    /// with 128 MiB, 33 ms mapped whole). The writer maps at most 128 MiB.
    public static let defaultMemoryMapBytes = 2_147_418_112

    /// True when the store was opened for reading only (see ``init(path:creatingWith:)``).
    public var isReadOnly: Bool { file.readOnly != nil }

    /// The store's environment now (a schema import can move a store to production).
    public var environment: StoreEnvironment {
        get throws { try read { db in try db.schema.storeInfo()?.environment ?? .development } }
    }

    /// One of the store's databases, acting as the user with record name `user` (default: the
    /// store's owner) from `device` (default: `CloudDatabase.defaultDevice`). A user record
    /// name the store has not met becomes a user (see ``ensureUser(_:)``).
    public func database(_ scope: DatabaseScope, user: String? = nil, device: String? = nil) -> CloudDatabase {
        if let user, user != owner { try? ensureUser(user) }
        return CloudDatabase(store: self, scope: scope, caller: .user(user ?? owner), device: device ?? CloudDatabase.defaultDevice)
    }

    /// One of the store's databases as `caller` sees it, from `device`.
    public func database(_ scope: DatabaseScope, caller: Caller, device: String? = nil) -> CloudDatabase {
        if let user = caller.userRecordName, user != owner { try? ensureUser(user) }
        return CloudDatabase(store: self, scope: scope, caller: caller, device: device ?? CloudDatabase.defaultDevice)
    }

    /// Every record type's schema, sorted by name.
    public func recordTypes() throws -> [RecordTypeSchema] {
        try read { db in try catalog(db).types.values.map(\.schema).sorted { $0.name < $1.name } }
    }

    /// Stores asset content and returns the value a record field holds for it.
    public func putAsset(_ data: Data) throws -> Asset {
        try write { db in try db.assets.insert(data) }
    }

    /// The content of an asset, or nil when the store has none with that checksum.
    public func assetData(checksum: String) throws -> Data? {
        try read { db in try db.assets.data(checksum: checksum) }
    }

    // MARK: - Transactions

    func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try file.read(body)
    }

    func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try file.write(body)
    }

    /// Writes outside a transaction, for a caller that commits as it goes (``CloudDatabase/writeInBulk(itemsPerTransaction:_:)``).
    func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try file.writeWithoutTransaction(body)
    }

    /// Runs a bulk write that commits as it goes with its pages straight in the file when the
    /// store holds no records and no one else has it open
    /// (``SQLiteStoreFile/writingInPlaceWhenEmpty(_:)``).
    func writingInPlaceWhenEmpty<T>(_ body: (_ inPlace: Bool) throws -> T) throws -> T {
        try file.writingInPlaceWhenEmpty(body)
    }

    /// The schema catalog as of this transaction, reloaded only when another write changed it.
    func catalog(_ db: StoreTransaction) throws -> SchemaCatalog {
        let version = try db.schema.schemaVersion()
        if let cached = catalogCache.withLock({ $0 }), cached.version == version { return cached }
        let loaded = try SchemaCatalog.load(db, version: version)
        catalogCache.withLock { $0 = loaded }
        return loaded
    }

    /// Records that a write changed the schema, so every process reloads it.
    func schemaChanged(_ db: StoreTransaction, catalog: inout SchemaCatalog) throws {
        catalog.version = try db.schema.advanceSchemaVersion()
        let updated = catalog
        catalogCache.withLock { $0 = updated }
    }
}
