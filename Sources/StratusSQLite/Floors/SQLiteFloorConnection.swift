import Foundation
import GRDB

/// A plain SQLite connection for `stratus bench`'s floors: hand-made tables and SQL a person
/// would write, measured beside Stratus on the same data. It goes through the same driver
/// (prepared, cached statements) as the store does, so a ratio measures Stratus's own work;
/// it lives in this backend so that the driver stays here.
package final class SQLiteFloorConnection: Sendable {
    private let queue: DatabaseQueue

    /// - Parameters:
    ///   - setup: SQL run on the connection as it opens (pragmas).
    ///   - functions: SQL functions the floor's queries call.
    ///   - foreignKeys: off for floors that copy a store's tables one by one.
    package init(path: String, readOnly: Bool = false, setup: String? = nil, functions: [SQLiteFloorFunction] = [],
                 foreignKeys: Bool = true) throws {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = foreignKeys
        configuration.prepareDatabase { db in
            if let setup { try db.execute(sql: setup) }
            for function in functions { db.add(function: function.databaseFunction) }
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Runs `sql` (several statements allowed) in one transaction.
    package func execute(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws {
        try queue.write { db in try db.execute(sql: sql, arguments: arguments.statementArguments) }
    }

    /// Runs `body` in one transaction, committed when it returns.
    package func write(_ body: (SQLiteFloorWriter) throws -> Void) throws {
        try queue.write { db in try body(SQLiteFloorWriter(db: db)) }
    }

    /// Runs `body` outside a transaction: for statements that cannot run in one (ATTACH, or
    /// a pragma on the journal) and for work committed in several transactions of its own.
    package func withoutTransaction(_ body: (SQLiteFloorWriter) throws -> Void) throws {
        try queue.writeWithoutTransaction { db in try body(SQLiteFloorWriter(db: db)) }
    }

    /// Reads every column of each row `sql` returns, as a client would; how many rows.
    package func readEveryColumn(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws -> Int {
        try queue.read { db in
            var count = 0
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments.statementArguments)
            while let row = try cursor.next() {
                for value in row.databaseValues { _ = value }
                count += 1
            }
            return count
        }
    }

    /// The rows `sql` returns, by column name.
    package func rows(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws -> [SQLiteFloorRow] {
        try queue.read { db in
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments.statementArguments).map(SQLiteFloorRow.init)
        }
    }

    /// The first column of the first row, as an integer.
    package func integer(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws -> Int64? {
        try queue.read { db in try Int64.fetchOne(db, sql: sql, arguments: arguments.statementArguments) }
    }

    /// Hands `body` the first column of each row as text, one row at a time.
    package func forEachText(_ sql: String, _ body: (String) throws -> Void) throws {
        try queue.read { db in
            let cursor = try String.fetchCursor(db, sql: sql)
            while let text = try cursor.next() { try body(text) }
        }
    }

    /// Reads, in one read transaction, whatever `body` reads through the database handle.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }
}

/// Writes inside one of ``SQLiteFloorConnection``'s transactions.
package struct SQLiteFloorWriter {
    let db: Database

    package func execute(_ sql: String, _ arguments: [SQLiteFloorValue] = []) throws {
        try db.execute(sql: sql, arguments: arguments.statementArguments)
    }

    /// A prepared statement kept by the connection, to run once per row.
    package func statement(_ sql: String) throws -> SQLiteFloorStatement {
        SQLiteFloorStatement(statement: try db.cachedStatement(sql: sql))
    }

    /// Runs `body` in a transaction of its own, committed when it returns.
    package func transaction(_ body: () throws -> Void) throws {
        try db.inTransaction {
            try body()
            return .commit
        }
    }
}

/// A prepared statement of a floor's writer.
package struct SQLiteFloorStatement {
    let statement: Statement

    package func execute(_ arguments: [SQLiteFloorValue]) throws {
        try statement.execute(arguments: arguments.statementArguments)
    }
}

/// One row a floor read, by column name.
package struct SQLiteFloorRow: Sendable {
    package let columns: [String]
    package let values: [SQLiteFloorValue]

    init(_ row: Row) {
        columns = Array(row.columnNames)
        values = row.databaseValues.map(SQLiteFloorValue.init)
    }

    package subscript(_ column: String) -> SQLiteFloorValue {
        columns.firstIndex(of: column).map { values[$0] } ?? .null
    }
}

/// A function the floor's SQL calls, over floor values.
package struct SQLiteFloorFunction: Sendable {
    let databaseFunction: DatabaseFunction

    package init(name: String, argumentCount: Int, body: @escaping @Sendable ([SQLiteFloorValue]) -> SQLiteFloorValue) {
        databaseFunction = DatabaseFunction(name, argumentCount: argumentCount, pure: true) { values in
            body(values.map(SQLiteFloorValue.init)).databaseValue
        }
    }
}
