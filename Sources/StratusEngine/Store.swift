import Foundation
import StratusModel
import StratusCloud

/// A local CloudKit container: the public, private and shared databases, their zones, records,
/// schema and change history, kept by a storage backend (one SQLite file in WAL mode, opened
/// with `Store(path:)` from `StratusSQLite`).
///
/// Several processes may open the same store at once (the dashboard while a script writes);
/// the backend serialises writers and every write is one transaction.
public final class Store: Sendable {
    /// Where the store lives.
    public let path: String
    /// The store's identity; it goes into every token and cursor.
    public let storeID: UUID
    /// The user record name that acts when no other user is named.
    public let owner: String

    /// Where the data lives (an SQLite file through `StratusSQLite`), handing out transactions.
    package let backend: any StorageBackend
    private let catalogCache = LockedValue<SchemaCatalog?>(nil)
    /// User record names known to have a user row: `database(_:user:)` runs on every query
    /// and request, and a user, once made, is never removed.
    let knownUsers = LockedValue<Set<String>>([])

    /// A store on `backend` (`StratusSQLite` opens one with `Store(path:)`).
    package init(backend: any StorageBackend) {
        self.backend = backend
        path = backend.location
        storeID = backend.info.uuid
        owner = backend.info.owner
        if !isReadOnly { try? syncFaultMarker() }
    }

    /// True when the store was opened for reading only (a file it cannot write, say).
    public var isReadOnly: Bool { backend.isReadOnly }

    /// The store's environment now (a schema import can move a store to production; it then
    /// advances the schema version, so the catalog answers).
    public var environment: StoreEnvironment {
        get throws { try currentCatalog().environment }
    }

    /// The record types and the environment as one read sees them now: a server's request
    /// checks the environment and types its records from this one read.
    package func currentCatalog() throws -> SchemaCatalog {
        try read { db in try catalog(db) }
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

    /// One record type's schema, nil for a type the schema does not have (yet).
    public func recordType(named name: String) throws -> RecordTypeSchema? {
        try read { db in try catalog(db).type(named: name)?.schema }
    }

    /// Stores asset content and returns the value a record field holds for it.
    public func putAsset(_ data: Data) throws -> Asset {
        try write { db in try db.assets.insert(data) }
    }

    /// The content of an asset, or nil when the store has none with that checksum.
    public func assetData(checksum: String) throws -> Data? {
        try read { db in try db.assets.data(checksum: checksum) }
    }

    /// Brings the query planner's statistics of the record tables up to date, as a bulk write
    /// (an import, a copy, a pull) does when it ends: for a store filled some other way whose
    /// queries must be planned well at once (PostgreSQL's autovacuum gathers them only later).
    /// A file's store has nothing to gather.
    public func gatherPlannerStatistics() throws {
        try backend.gatherPlannerStatistics()
    }

    /// ``gatherPlannerStatistics()`` after a bulk write that has committed: a failure here
    /// leaves the statistics to autovacuum and is no failure of the write.
    func gatherPlannerStatisticsAfterBulkWrite() {
        try? backend.gatherPlannerStatistics()
    }

    // MARK: - Transactions

    func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if let pinned = PinnedRead.transaction(of: self) { return try body(pinned) }
        return try backend.read(body)
    }

    /// Runs `body` with every read it makes of this store on this thread in one read
    /// transaction: one snapshot, and one transaction's cost instead of one per read (a server
    /// request reads its store's environment, records, shares and types). Writes inside
    /// `body` still commit in transactions of their own, which the snapshot does not see, so
    /// this is for work that reads.
    public func readingOneSnapshot<T>(_ body: () throws -> T) throws -> T {
        if PinnedRead.transaction(of: self) != nil { return try body() }
        return try backend.read { db in
            try PinnedRead.$active.withValue(PinnedRead(store: self, transaction: db)) { try body() }
        }
    }

    func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try backend.write(body)
    }

    /// Writes outside a transaction, for a caller that commits as it goes (``CloudDatabase/writeInBulk(itemsPerTransaction:_:)``).
    func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try backend.writeWithoutTransaction(body)
    }

    /// Runs a bulk write that commits as it goes with its pages straight in the store when it
    /// holds no records and no one else has it open (as the backend can;
    /// ``StorageBackend/writingInPlaceWhenEmpty(_:)``).
    func writingInPlaceWhenEmpty<T>(_ body: (_ inPlace: Bool) throws -> T) throws -> T {
        try backend.writingInPlaceWhenEmpty(body)
    }

    /// The schema catalog as of this transaction, reloaded only when another write changed it.
    /// The version is read once per transaction (``StoreTransaction/memo``): a server request
    /// that reads in one transaction asks for the catalog several times.
    func catalog(_ db: StoreTransaction) throws -> SchemaCatalog {
        if let known = db.memo.catalog { return known }
        let version = try db.schema.schemaVersion()
        if let cached = catalogCache.withLock({ $0 }), cached.version == version {
            db.memo.catalog = cached
            return cached
        }
        let loaded = try SchemaCatalog.load(db, version: version)
        catalogCache.withLock { $0 = loaded }
        db.memo.catalog = loaded
        return loaded
    }

    /// Records that a write changed the schema, so every process reloads it.
    func schemaChanged(_ db: StoreTransaction, catalog: inout SchemaCatalog) throws {
        catalog.version = try db.schema.advanceSchemaVersion()
        let updated = catalog
        catalogCache.withLock { $0 = updated }
        db.memo.catalog = updated
    }
}
