import StratusCloud
import StratusEngine
import StratusModel

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
    /// New records held back to be inserted together (``PostgresHeldRecords``).
    private var heldRecords = PostgresHeldRecords()
    /// What this transaction added to that live views show, announced to every process
    /// listening when it commits (``PostgresListener``).
    private var announcements: Set<StoreTopic> = []

    /// What a reader's first look at the store found, in one statement: the schema version and
    /// whether the fault plan holds an armed fault. A reader's snapshot never changes, so both
    /// hold to its end (``openingFacts()``).
    private var opening: (schemaVersion: Int64, faultsArmed: Bool)?
    /// The zone a reader said it will look up first (``expect(zone:scope:)``), and its row as the
    /// opening statement read it (nil: no such zone).
    private var expectedZone: (zoneID: ZoneID, scope: DatabaseScope)?
    private var openedZoneRow: ZoneRow?

    init(link: PostgresLink, isWriter: Bool) {
        self.link = link
        self.isWriter = isWriter
        link.beforeStatement = nil
    }

    /// The engine's view of this transaction.
    var store: StoreTransaction {
        StoreTransaction(zones: PostgresZoneStorage(db: self), records: PostgresRecordStorage(db: self), changeFeed: PostgresChangeFeedStorage(db: self),
                         schema: PostgresSchemaStorage(db: self), users: PostgresUserStorage(db: self), shares: PostgresShareStorage(db: self),
                         subscriptions: PostgresSubscriptionStorage(db: self), faults: PostgresFaultStorage(db: self),
                         assets: PostgresAssetStorage(db: self), server: PostgresServerStorage(db: self),
                         control: PostgresTransactionControl(db: self), tables: PostgresTableCopyStorage(db: self))
    }

    /// Begins the transaction with `statement`, sent ahead of the transaction's first
    /// statement (``PostgresLink/sendAhead(_:)``): one wait fewer per transaction.
    func begin(_ statement: String = "BEGIN") throws {
        heldRecords = PostgresHeldRecords()
        opening = nil
        expectedZone = nil
        openedZoneRow = nil
        link.sendAhead(statement)
        isOpen = true
    }

    func commit() throws {
        guard isOpen else { return }
        try flushRecords()
        try flushFieldRows()
        // PostgreSQL delivers a NOTIFY sent in a transaction when (and only if) it commits.
        for topic in announcements.sorted(by: { $0.rawValue < $1.rawValue }) {
            try link.run("SELECT pg_notify($1, $2)", [PostgresListener.channel, PostgresListener.payload(schema: link.location.schema, topic: topic)])
        }
        announcements = []
        isOpen = false
        if isWriter {
            try link.script("COMMIT")
        } else {
            // A transaction that only read has nothing to lose at its end: its COMMIT is sent
            // at once and its answer checked with the connection's next statement's, so a read
            // costs a wait fewer.
            link.sendAhead("COMMIT")
        }
    }

    /// A reader's schema version and whether a fault is armed, read together once: a read call
    /// asks both first (``StorageBackend/readsKnowFaultPlan``), and each statement is a round trip.
    /// Nil for a writer, whose own writes may change either.
    func openingFacts() throws -> (schemaVersion: Int64, faultsArmed: Bool)? {
        guard !isWriter else { return nil }
        if let opening { return opening }
        let facts: (schemaVersion: Int64, faultsArmed: Bool)
        if let expected = expectedZone {
            // The zone's columns first, so the zone storage reads them as from its own statement.
            let row = try link.rows("""
                SELECT \(PostgresZoneStorage.columns(of: "z")), s.schema_version, \(PostgresFaultStorage.armedExpression)
                FROM store_info s LEFT JOIN zone z ON z.scope = $1 AND z.owner = $2 AND z.name = $3 WHERE s.id = 1
                """, [expected.scope.rawValue, expected.zoneID.ownerName, expected.zoneID.zoneName]).first
            openedZoneRow = try row.flatMap { try $0.optionalInt(0) == nil ? nil : try PostgresZoneStorage.zone($0) }
            facts = (try row?.int(9) ?? 0, try row?.bool(10) ?? false)
        } else {
            let row = try link.rows("SELECT schema_version, \(PostgresFaultStorage.armedExpression) FROM store_info WHERE id = 1").first
            facts = (try row?.int(0) ?? 0, try row?.bool(1) ?? false)
        }
        opening = facts
        return facts
    }

    /// Tells a reader that has sent nothing yet which zone it will look up first: its opening
    /// statement reads that row too (``openedZone(_:scope:)``).
    func expect(zone zoneID: ZoneID, scope: DatabaseScope) {
        guard !isWriter, opening == nil else { return }
        expectedZone = (zoneID, scope)
    }

    /// The expected zone's row as the opening statement read it (`.some(nil)`: there is no such
    /// zone); nil when this is not the expected zone, which is then read on its own.
    func openedZone(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow?? {
        guard !isWriter, let expected = expectedZone, expected.scope == scope, expected.zoneID == zoneID else { return nil }
        _ = try openingFacts()
        return .some(openedZoneRow)
    }

    /// Announces `topic` to listening processes when this transaction commits.
    func announce(_ topic: StoreTopic) {
        announcements.insert(topic)
    }

    func rollback() {
        heldFieldRows = []
        heldRecords = PostgresHeldRecords()
        link.beforeStatement = nil
        announcements = []
        guard isOpen else { return }
        isOpen = false
        try? link.script("ROLLBACK")
    }

    /// Inserts a new record's row with its id; nil when the zone holds that name already. The
    /// transaction's first goes in at once; later ones are held and go in together before the
    /// connection's next statement (``PostgresHeldRecords``), a name found taken then failing
    /// the transaction.
    func insertRecord(_ row: RecordRow, tokens: [String], targets: [String]) throws -> Int64? {
        // Outside a transaction (a bulk writer between its own commits) nothing is held: no
        // commit would write it.
        guard isOpen, heldRecords.insertedOne else {
            heldRecords.insertedOne = isOpen
            return try PostgresRecordStorage(db: self).insertRow(row, tokens: tokens, targets: targets)
        }
        if heldRecords.reserved.isEmpty { try reserveRecordIDs() }
        let id = heldRecords.reserved.removeLast()
        heldRecords.rows.append(.init(id: id, row: row, tokens: tokens, targets: targets))
        link.beforeStatement = { [weak self] in try self?.flushRecords() }
        return id
    }

    /// Takes the next block of ids from the record table's sequence, without the held rows
    /// going in first.
    private func reserveRecordIDs() throws {
        let waiting = link.beforeStatement
        link.beforeStatement = nil
        defer { link.beforeStatement = waiting }
        let count = heldRecords.nextReservation
        heldRecords.nextReservation = min(count * 2, PostgresHeldRecords.largestReservation)
        let ids = try link.rows("SELECT nextval(pg_get_serial_sequence('record', 'id')) FROM generate_series(1, $1)", [count]).map { try $0.int(0) }
        heldRecords.reserved = ids.sorted(by: >)
    }

    /// Inserts the held records, many to a statement.
    func flushRecords() throws {
        link.beforeStatement = nil
        guard !heldRecords.rows.isEmpty else { return }
        let rows = heldRecords.rows
        heldRecords.rows = []
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + PostgresHeldRecords.rowsPerStatement, rows.count)]
            let (sql, binds) = PostgresHeldRecords.insert(chunk)
            let written = try link.rows(sql, binds)
            if written.count < chunk.count {
                let names = Set(try written.map { try $0.string(0) })
                let taken = chunk.first { !names.contains($0.row.name) }?.row.name ?? ""
                throw CloudKitError(.internalError, "Record '\(taken)' was planned as new, but its name is taken.")
            }
            start += chunk.count
        }
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
