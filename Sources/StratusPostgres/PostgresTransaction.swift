import StratusEngine

/// One transaction of a PostgreSQL store on one connection, and the engine's view of it (one
/// accessor per storage protocol). A writer reads the zones it touches `FOR UPDATE`: that row
/// lock, held to commit, is the per-zone counter that keeps change sequences in commit order.
final class PostgresTransaction {
    let link: PostgresLink
    /// Whether this transaction may write (its zone reads then lock the zone's row).
    let isWriter: Bool
    /// Whether a transaction is open on the connection (a bulk writer begins and commits as it goes).
    var isOpen = false
    /// Whether the store has its `field_value` index (format 3): a standby of a primary still on
    /// format 2 has not, until the primary is opened and upgrades both.
    var hasFieldIndex = true
    /// `field_value` rows of this transaction's saves, written many to a statement before
    /// anything reads the index and at commit (``flushFieldRows()``), instead of a statement per
    /// record.
    var heldFieldRows: [PostgresFieldIndex.Row] = []
    /// What this transaction added to that live views show, announced to every process
    /// listening when it commits (``PostgresListener``).
    private var announcements: Set<StoreTopic> = []

    init(link: PostgresLink, isWriter: Bool) {
        self.link = link
        self.isWriter = isWriter
    }

    /// The engine's view of this transaction.
    var store: StoreTransaction {
        StoreTransaction(zones: PostgresZoneStorage(db: self), records: PostgresRecordStorage(db: self), changeFeed: PostgresChangeFeedStorage(db: self),
                         schema: PostgresSchemaStorage(db: self), users: PostgresUserStorage(db: self), shares: PostgresShareStorage(db: self),
                         subscriptions: PostgresSubscriptionStorage(db: self), faults: PostgresFaultStorage(db: self),
                         assets: PostgresAssetStorage(db: self), server: PostgresServerStorage(db: self),
                         control: PostgresTransactionControl(db: self), tables: PostgresTableCopyStorage(db: self))
    }

    func begin(_ statement: String = "BEGIN") throws {
        try link.script(statement)
        isOpen = true
    }

    func commit() throws {
        guard isOpen else { return }
        try flushFieldRows()
        // PostgreSQL delivers a NOTIFY sent in a transaction when (and only if) it commits.
        for topic in announcements.sorted(by: { $0.rawValue < $1.rawValue }) {
            try link.run("SELECT pg_notify($1, $2)", [PostgresListener.channel, PostgresListener.payload(schema: link.location.schema, topic: topic)])
        }
        announcements = []
        isOpen = false
        try link.script("COMMIT")
    }

    /// Announces `topic` to listening processes when this transaction commits.
    func announce(_ topic: StoreTopic) {
        announcements.insert(topic)
    }

    func rollback() {
        heldFieldRows = []
        announcements = []
        guard isOpen else { return }
        isOpen = false
        try? link.script("ROLLBACK")
    }

    /// Writes the held `field_value` rows: before a read of the index, a removal by zone, and
    /// the commit.
    func flushFieldRows() throws {
        guard !heldFieldRows.isEmpty else { return }
        let rows = heldFieldRows
        heldFieldRows = []
        try PostgresFieldIndex(db: self).insert(rows)
    }
}

/// Beginning, committing and rolling back on a PostgreSQL connection, for a bulk write that
/// commits as it goes.
struct PostgresTransactionControl: TransactionControl {
    let db: PostgresTransaction

    var isInsideTransaction: Bool { db.isOpen }

    func beginTransaction() throws { try db.begin() }

    func commit() throws { try db.commit() }

    func rollback() throws { db.rollback() }

    /// Nothing to ready: the server manages its own cache.
    func prepareForBulkWrite(importing: Bool) throws {}
}
