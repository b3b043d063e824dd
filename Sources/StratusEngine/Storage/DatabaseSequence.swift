import GRDB
import StratusCloud

/// The counter that orders a database's change feed (`database_state.change_seq`): a database
/// change token is a position in it.
enum DatabaseSequence {
    /// Where the feed of `scope` stands now.
    static func current(scope: DatabaseScope, in db: StoreTransaction) throws -> Int64 {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT change_seq FROM database_state WHERE scope = ?"), arguments: [scope.rawValue]) ?? 0
    }

    /// Moves the feed of `scope` on by one and returns the new position.
    static func next(scope: DatabaseScope, in db: StoreTransaction) throws -> Int64 {
        try db.sqlite.cachedStatement(sql: "UPDATE database_state SET change_seq = change_seq + 1 WHERE scope = ?").execute(arguments: [scope.rawValue])
        return try current(scope: scope, in: db)
    }
}
