import StratusEngine

/// One transaction on a memory store: its own copy of the tables, which its accessors read and
/// change, and the way to hand that copy back to the store when it commits.
final class MemoryTransaction {
    var tables: MemoryTables
    /// Set once this transaction writes a record: its queries then index its own records.
    var changedRecords = false
    /// The query storages of the committed state.
    let queries: MemoryQueryCache
    /// Makes `tables` the store's committed state and returns its commit number (nil in a read).
    private let publish: ((MemoryTables) -> Int64)?
    /// The tables as they were when the open transaction began (``MemoryTransactionControl``).
    private var savepoint: MemoryTables?

    init(tables: MemoryTables, queries: MemoryQueryCache, publish: ((MemoryTables) -> Int64)?) {
        self.tables = tables
        self.queries = queries
        self.publish = publish
    }

    var isInsideTransaction: Bool { savepoint != nil }

    func begin() { savepoint = tables }

    func commit() {
        savepoint = nil
        if let publish {
            tables.commit = publish(tables)
            changedRecords = false
        }
    }

    func rollback() {
        if let savepoint { tables = savepoint }
        savepoint = nil
        changedRecords = true
    }

    /// The engine's view of this transaction.
    var store: StoreTransaction {
        StoreTransaction(zones: MemoryZoneStorage(db: self), records: MemoryRecordStorage(db: self), changeFeed: MemoryChangeFeedStorage(db: self),
                         schema: MemorySchemaStorage(db: self), users: MemoryUserStorage(db: self), shares: MemoryShareStorage(db: self),
                         subscriptions: MemorySubscriptionStorage(db: self), faults: MemoryFaultStorage(db: self), assets: MemoryAssetStorage(db: self),
                         server: MemoryServerStorage(db: self), control: MemoryTransactionControl(db: self))
    }
}

/// Beginning, committing and rolling back a memory store's transactions, for a bulk write that
/// commits as it goes.
struct MemoryTransactionControl: TransactionControl {
    let db: MemoryTransaction

    var isInsideTransaction: Bool { db.isInsideTransaction }

    func beginTransaction() throws { db.begin() }

    func commit() throws { db.commit() }

    func rollback() throws { db.rollback() }

    /// Nothing to ready: memory has no cache to grow.
    func prepareForBulkWrite(importing: Bool) throws {}
}
