import GRDB
import StratusModel

extension CloudDatabase {
    /// Runs `body` with a writer whose batches are checked and written exactly as
    /// ``modifyRecords(saving:deleting:savePolicy:atomically:)`` writes them (validation,
    /// change tags, sequences, tombstones, cascades, notifications), but grouped into large
    /// transactions: a commit once `itemsPerTransaction` items are written, and at the end.
    ///
    /// For tools that fill a store (the demo): an index page touched by many batches is written
    /// to the log once per transaction instead of once per batch of 400, a small fraction of the
    /// bytes on a large store. A failure rolls back only the transaction under way; what was
    /// committed before stays, as after separate `modifyRecords` calls. Filling a store is not a
    /// client's sync, so the fault plan is not met here.
    public func writeInBulk<T>(itemsPerTransaction: Int = 50_000, _ body: (inout BulkWriter) throws -> T) throws -> T {
        try store.writeWithoutTransaction { db in
            try PageCache.enlarge(db)
            var writer = BulkWriter(database: self, db: db, itemsPerTransaction: max(1, itemsPerTransaction))
            do {
                let result = try body(&writer)
                if db.isInsideTransaction { try db.commit() }
                return result
            } catch {
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }
}

/// The writer ``CloudDatabase/writeInBulk(itemsPerTransaction:_:)`` hands out; valid only inside it.
public struct BulkWriter {
    let database: CloudDatabase
    let db: GRDB.Database
    let itemsPerTransaction: Int
    private var uncommitted = 0

    init(database: CloudDatabase, db: GRDB.Database, itemsPerTransaction: Int) {
        self.database = database
        self.db = db
        self.itemsPerTransaction = itemsPerTransaction
    }

    /// One batch, as ``CloudDatabase/modifyRecords(saving:deleting:savePolicy:atomically:)``.
    public mutating func modifyRecords(saving: [Record] = [], deleting: [RecordID] = [],
                                       savePolicy: RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true) throws -> ModifyRecordsResult {
        try CloudDatabase.checkBatchSize(saving.count + deleting.count)
        if !db.isInsideTransaction { try db.beginTransaction() }
        // Each batch is whole or not at all, as on its own: an error undoes only its writes.
        var result: ModifyRecordsResult?
        try db.inSavepoint {
            result = try database.modifyRecords(saving: saving, deleting: deleting, savePolicy: savePolicy, atomically: atomically, in: db)
            return .commit
        }
        guard let result else { throw CloudKitError(.internalError, "The batch was not written.") }
        uncommitted += saving.count + deleting.count
        if uncommitted >= itemsPerTransaction {
            try db.commit()
            uncommitted = 0
        }
        return result
    }
}
