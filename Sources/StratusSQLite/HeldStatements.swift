import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The statements one transaction runs over and over (a record's row and its full-text row,
/// millions of times in an import), each prepared once and found again by the address of its
/// SQL literal.
///
/// GRDB's own cache finds a statement by its SQL text: hashing a couple of hundred bytes and
/// checking the connection's queue for each record cost the import's writing thread 2.5% of its
/// time. A handful of literals are told apart by comparing addresses.
final class HeldStatements {
    private var held: [(sql: UnsafeRawPointer, statement: Statement)] = []

    /// The statement for `sql` on `db`, prepared (through GRDB's cache) the first time.
    func statement(_ sql: StaticString, in db: GRDB.Database) throws -> Statement {
        let key = UnsafeRawPointer(sql.utf8Start)
        for entry in held where entry.sql == key { return entry.statement }
        let statement = try db.cachedStatement(sql: sql.withUTF8Buffer { String(decoding: $0, as: UTF8.self) })
        held.append((key, statement))
        return statement
    }
}
