import Foundation
import StratusCloud
import StratusEngine

/// A store's data held in memory: the second implementation of the engine's storage protocols,
/// beside SQLite's. Writers take turns; each works on its own copy of the tables
/// (``MemoryTables``) and the copy becomes the store's state only when the write commits, so a
/// write that throws leaves nothing behind and a reader sees the last committed state.
///
/// Nothing outlives the process. It serves the engine's behaviour tests (which run on both
/// backends, proving the engine needs nothing SQLite-specific) and tools that want a scratch
/// store; a new backend (PostgreSQL) follows its shape: one accessor per storage protocol over
/// one transaction value.
package final class MemoryBackend: StorageBackend, @unchecked Sendable {
    package let location: String
    package let info: StoreInfo
    package var isReadOnly: Bool { false }

    /// The last committed state, behind `stateLock`.
    private var committed: MemoryTables
    private let stateLock = NSLock()
    /// Held for a whole write: one writer at a time, as SQLite has it.
    private let writerLock = NSLock()
    private let queries = MemoryQueryCache()

    /// A new, empty store named `location`, in `environment` (default development), with its
    /// owner, the public default zone and the `Users` type, as every store starts.
    package init(location: String, environment: StoreEnvironment?) throws {
        self.location = location
        let info = NewStore.info(formatVersion: 1, environment: environment)
        self.info = info
        let first = MemoryTransaction(tables: MemoryTables(), queries: queries, publish: nil)
        try MemoryBackend.initialize(first, info: info)
        committed = first.tables
    }

    package func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try body(MemoryTransaction(tables: snapshot(), queries: queries, publish: nil).store)
    }

    package func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        let transaction = MemoryTransaction(tables: snapshot(), queries: queries, publish: nil)
        let result = try body(transaction.store)
        _ = store(transaction.tables)
        return result
    }

    /// Writes made outside a transaction commit at once, as SQLite's autocommit does; a
    /// transaction left open when `body` ends is rolled back.
    package func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        let transaction = MemoryTransaction(tables: snapshot(), queries: queries, publish: { [self] in store($0) })
        defer {
            transaction.rollback()
            _ = store(transaction.tables)
        }
        return try body(transaction.store)
    }

    /// Memory has no file to write in place: the bulk write runs as any other.
    package func writingInPlaceWhenEmpty<T>(_ body: (Bool) throws -> T) throws -> T { try body(false) }

    /// Another memory store cannot be reached by its location: each lives in its own process
    /// and value.
    package func readWithoutOpening<T>(_ location: String, _ body: (StoreTransaction) throws -> T) throws -> T {
        throw CloudKitError(.badDatabase, "\(location) is not a store this process can read: memory stores are reached only through the Store that made them.",
                            reason: .storeNotFound(path: location))
    }

    private func snapshot() -> MemoryTables {
        stateLock.lock()
        defer { stateLock.unlock() }
        return committed
    }

    /// Makes `tables` the committed state and returns its commit number.
    private func store(_ tables: MemoryTables) -> Int64 {
        stateLock.lock()
        defer { stateLock.unlock() }
        var tables = tables
        tables.commit = committed.commit + 1
        committed = tables
        return tables.commit
    }

    /// What a new store holds: its info, every database's feed, the public default zone, the
    /// `Users` type and the owner (``NewStore``).
    private static func initialize(_ db: MemoryTransaction, info: StoreInfo) throws {
        db.tables.info = info
        for scope in DatabaseScope.allCases { db.tables.databaseSequences[scope] = 0 }
        _ = MemoryZoneStorage(db: db).insertZone(MemoryTables.ZoneKey(scope: .public, owner: ZoneID.defaultOwnerName, name: ZoneID.defaultZoneName),
                                                 databaseSequence: 0)
        try NewStore.addFirstRows(owner: info.owner, in: db.store)
    }
}
