import GRDB
import StratusCloud

/// One transaction on the store, as the engine above `Storage/` holds it: ``Store/read(_:)``
/// and ``Store/write(_:)`` hand it to their bodies, and the engine only passes it on to the
/// storage accessors (`ZoneRow`, `StoredRecord`, `RecordRowWriter`, ...), which alone reach the
/// SQLite connection inside.
///
/// So the engine names no GRDB type, and a second backend brings its own transaction here and
/// re-implements the accessors that take it. (`StorageBoundaryTests` keeps GRDB and SQL out of
/// the engine.)
struct StoreTransaction {
    /// The connection, inside its transaction (outside one only in
    /// ``Store/writeWithoutTransaction(_:)``, whose caller begins and commits).
    let sqlite: GRDB.Database
    /// Statements prepared once for this transaction (``DirectStatement``'s literal SQL).
    let statements = HeldStatements()

    /// Whether a transaction is open (for ``Store/writeWithoutTransaction(_:)``'s caller).
    var isInsideTransaction: Bool { sqlite.isInsideTransaction }

    func beginTransaction() throws { try sqlite.beginTransaction() }

    func commit() throws { try sqlite.commit() }

    func rollback() throws { try sqlite.rollback() }
}
