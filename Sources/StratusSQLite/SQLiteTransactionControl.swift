import GRDB
import StratusEngine

/// Begins, commits and rolls back on the SQLite writer, and sizes its page cache for bulk
/// writes (``PageCache``).
struct SQLiteTransactionControl: TransactionControl {
    let db: SQLiteTransaction

    package var isInsideTransaction: Bool { db.sqlite.isInsideTransaction }

    package func beginTransaction() throws { try db.sqlite.beginTransaction() }

    package func commit() throws { try db.sqlite.commit() }

    package func rollback() throws { try db.sqlite.rollback() }

    package func prepareForBulkWrite(importing: Bool) throws {
        try PageCache.enlarge(db, toKiB: importing ? PageCache.importKiB : PageCache.bulkKiB)
    }
}
