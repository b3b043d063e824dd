/// One transaction on the store, as a backend hands it to ``Store/read(_:)`` and
/// ``Store/write(_:)`` bodies: the storage of each group (zones, records, ...) inside that
/// transaction, modelled on GRDB's `DatabaseReader`/`DatabaseWriter`, whose closures receive a
/// database. The engine reads and writes only through these protocols; the backend (SQLite
/// in `StratusSQLite`) builds the value, and its accessors alone reach its connection.
package struct StoreTransaction {
    package let zones: any ZoneStorage
    package let records: any RecordStorage
    package let changeFeed: any ChangeFeedStorage
    package let schema: any SchemaStorage
    package let users: any UserStorage
    package let shares: any ShareStorage
    package let subscriptions: any SubscriptionStorage
    package let faults: any FaultStorage
    package let assets: any AssetStorage
    package let server: any ServerStorage
    /// Beginning, committing and rolling back, for a writer that commits as it goes. (A
    /// backend's tests reach its own connection through its control's type.)
    package let control: any TransactionControl
    /// Every table row by row, for ``Store/copy(to:progress:)`` (nil: a backend that cannot
    /// be copied from or into).
    package let tables: (any TableCopyStorage)?
    /// What this transaction has already read and need not ask again (the schema catalog).
    /// Forgotten when the transaction begins, commits or rolls back, for a writer that commits
    /// as it goes.
    let memo = TransactionMemo()

    package init(zones: any ZoneStorage, records: any RecordStorage, changeFeed: any ChangeFeedStorage, schema: any SchemaStorage,
                 users: any UserStorage, shares: any ShareStorage, subscriptions: any SubscriptionStorage, faults: any FaultStorage,
                 assets: any AssetStorage, server: any ServerStorage, control: any TransactionControl,
                 tables: (any TableCopyStorage)? = nil) {
        self.zones = zones
        self.records = records
        self.changeFeed = changeFeed
        self.schema = schema
        self.users = users
        self.shares = shares
        self.subscriptions = subscriptions
        self.faults = faults
        self.assets = assets
        self.server = server
        self.control = control
        self.tables = tables
    }

    /// Whether a transaction is open (for ``Store/writeWithoutTransaction(_:)``'s caller).
    var isInsideTransaction: Bool { control.isInsideTransaction }

    func beginTransaction() throws {
        memo.forget()
        try control.beginTransaction()
    }

    func commit() throws {
        memo.forget()
        try control.commit()
    }

    func rollback() throws {
        memo.forget()
        try control.rollback()
    }

    /// Readies the writer for a bulk write: an import (`importing`) or a bulk fill.
    func prepareForBulkWrite(importing: Bool) throws { try control.prepareForBulkWrite(importing: importing) }
}
