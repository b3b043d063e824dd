import StratusModel
import StratusCloud

extension CloudDatabase {
    /// Runs `body` with a writer whose batches are checked and written exactly as
    /// ``modifyRecords(saving:deleting:savePolicy:atomically:)`` writes them (validation,
    /// change tags, sequences, tombstones, cascades, notifications), but grouped into large
    /// transactions: a commit once `itemsPerTransaction` items are written, and at the end.
    ///
    /// For tools that fill a store (the demo): an index page touched by many batches is written
    /// to the log once per transaction instead of once per batch of 400, and new records' index
    /// rows are held back and written sorted at each commit (as an import writes them), a small
    /// fraction of the bytes and the B-tree work on a large store. A thrown error (from a batch
    /// or from `body`) rolls back the transaction under way; what was committed before stays, as
    /// after separate `modifyRecords` calls. Per-record failures are in each batch's result, as
    /// ever. Filling a store is not a client's sync, so the fault plan is not met here. A store
    /// without records that no one else has open is filled in place, under a rollback journal.
    public func writeInBulk<T>(itemsPerTransaction: Int = 50_000, _ body: (inout BulkWriter) throws -> T) throws -> T {
        try writeInBulk(itemsPerTransaction: itemsPerTransaction, indexRowLimit: RecordImporter.indexRowLimit, body)
    }

    /// `indexRowLimit`: index rows held before they go to a spill file (tests make it small).
    func writeInBulk<T>(itemsPerTransaction: Int, indexRowLimit: Int, _ body: (inout BulkWriter) throws -> T) throws -> T {
        // A new store's pages go straight into its file (``Store/writingInPlaceWhenEmpty(_:)``).
        let result = try store.writingInPlaceWhenEmpty { _ in
            try writeInBulkTransactions(itemsPerTransaction: itemsPerTransaction, indexRowLimit: indexRowLimit, body)
        }
        store.gatherPlannerStatisticsAfterBulkWrite()
        return result
    }

    private func writeInBulkTransactions<T>(itemsPerTransaction: Int, indexRowLimit: Int,
                                            _ body: (inout BulkWriter) throws -> T) throws -> T {
        try store.writeWithoutTransaction { db in
            try db.prepareForBulkWrite(importing: false)
            var writer = BulkWriter(database: self, db: db, itemsPerTransaction: max(1, itemsPerTransaction), indexRowLimit: indexRowLimit)
            do {
                let result = try body(&writer)
                try writer.commit()
                return result
            } catch {
                writer.rollback()
                throw error
            }
        }
    }
}

/// The writer ``CloudDatabase/writeInBulk(itemsPerTransaction:_:)`` hands out; valid only inside it.
public struct BulkWriter {
    let database: CloudDatabase
    let db: StoreTransaction
    let itemsPerTransaction: Int
    let indexRowLimit: Int
    private var uncommitted = 0
    /// New records' index rows of the transaction under way, written sorted before it commits.
    private var buffer: any IndexRowBuffering

    init(database: CloudDatabase, db: StoreTransaction, itemsPerTransaction: Int, indexRowLimit: Int) {
        self.database = database
        self.db = db
        self.itemsPerTransaction = itemsPerTransaction
        self.indexRowLimit = indexRowLimit
        buffer = db.records.makeIndexBuffer(limit: indexRowLimit)
    }

    /// One batch, as ``CloudDatabase/modifyRecords(saving:deleting:savePolicy:atomically:)``.
    public mutating func modifyRecords(saving: [Record] = [], deleting: [RecordID] = [],
                                       savePolicy: RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true) throws -> ModifyRecordsResult {
        try CloudDatabase.checkBatchSize(saving.count + deleting.count)
        if !db.isInsideTransaction { try db.beginTransaction() }
        let result: ModifyRecordsResult
        do {
            result = try database.modifyRecords(saving: saving, deleting: deleting, savePolicy: savePolicy, atomically: atomically,
                                                indexBuffer: buffer, in: db)
        } catch {
            // Held-back rows may belong to the batch that failed: the transaction goes whole.
            rollback()
            throw error
        }
        uncommitted += saving.count + deleting.count
        if uncommitted >= itemsPerTransaction { try commit() }
        return result
    }

    /// Writes the held-back index rows and commits the transaction under way.
    mutating func commit() throws {
        guard db.isInsideTransaction else { return }
        try buffer.flush()
        try db.commit()
        uncommitted = 0
    }

    /// Undoes the transaction under way and forgets its held-back rows.
    mutating func rollback() {
        if db.isInsideTransaction { try? db.rollback() }
        buffer = db.records.makeIndexBuffer(limit: indexRowLimit)
        uncommitted = 0
    }
}
