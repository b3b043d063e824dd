import Foundation
import PostgresNIO

/// A plain connection to PostgreSQL for the bench's hand-made baseline: the SQL a person would
/// write against PostgreSQL directly, in a schema of its own, measured beside Stratus's store
/// on the same server. The bench's SQL stays the bench's; this backend only carries it.
package final class PostgresFloorConnection {
    private let link: PostgresLink
    /// The schema the connection reads and writes (its `search_path`).
    package let schema: String

    /// Connects to the database of the store URL `url`, with `schema` (made when missing) as
    /// its search path.
    package init(url: String, schema: String) throws {
        let location = try PostgresLocation(url: url).withSchema(schema)
        link = try PostgresLink.connect(to: location)
        self.schema = schema
        try link.script("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"")
        try link.script("SET search_path TO \"\(schema)\"")
    }

    deinit { link.close() }

    /// Runs statements without binds, each ended by a `;` at a line's end.
    package func script(_ sql: String) throws { try link.script(sql) }

    /// Runs one statement.
    package func execute(_ sql: String, _ binds: [any PostgresBinding] = []) throws { try link.run(sql, binds) }

    /// The first column of the first row as an integer.
    package func integer(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> Int64? { try link.integer(sql, binds) }

    /// The first column of the first row as text.
    package func text(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> String? {
        try link.rows(sql, binds).first.flatMap { try $0.optionalString(0) }
    }

    /// Hands the first column of each row, an integer, to `body`; returns how many rows.
    package func readIDs(_ sql: String, _ binds: [any PostgresBinding] = [], _ body: (Int64) -> Void) throws -> Int {
        try link.eachRow(sql, binds) { row in body(try row.makeRandomAccess()[0].decode(Int64.self)) }
    }

    /// Removes `schema` and everything in it.
    package func drop(schema: String) throws { try link.script("DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE") }

    /// Runs `body` in one transaction, committed when it returns.
    package func transaction(_ body: () throws -> Void) throws {
        try link.script("BEGIN")
        do {
            try body()
            try link.script("COMMIT")
        } catch {
            try? link.script("ROLLBACK")
            throw error
        }
    }

    /// Decodes every column of every row `sql` returns, as a client would; returns how many rows.
    package func readEveryColumn(_ sql: String, _ binds: [any PostgresBinding] = []) throws -> Int {
        try link.eachRow(sql, binds) { row in
            for cell in row {
                switch cell.dataType {
                case .int8, .int4, .int2: _ = try cell.decode(Int64?.self)
                case .float8, .float4: _ = try cell.decode(Double?.self)
                case .bool: _ = try cell.decode(Bool?.self)
                case .textArray, .varcharArray: _ = try cell.decode([String]?.self)
                case .bytea: _ = try cell.decode(Data?.self)
                default: _ = try cell.decode(String?.self)
                }
            }
        }
    }

    /// Hands the named columns of each row `sql` returns to `body`, each an `Int64`, a `Double`
    /// or a `String`: a keyset page's sort keys.
    package func eachRow(_ sql: String, _ binds: [any PostgresBinding], columns: [String], _ body: ([Any]) throws -> Void) throws {
        try link.eachRow(sql, binds) { row in
            let cells = row.makeRandomAccess()
            try body(try columns.map { name -> Any in
                let cell = cells[name]
                switch cell.dataType {
                case .int8, .int4, .int2: return try cell.decode(Int64.self)
                case .float8, .float4: return try cell.decode(Double.self)
                default: return try cell.decode(String.self)
                }
            })
        }
    }

    /// Hands each row's first column (an integer) and second (text) to `body`; returns how many rows.
    @discardableResult
    package func eachText(_ sql: String, _ binds: [any PostgresBinding] = [], _ body: (Int64, String) throws -> Void) throws -> Int {
        try link.eachRow(sql, binds) { row in
            let cells = row.makeRandomAccess()
            try body(try cells[0].decode(Int64.self), try cells[1].decode(String.self))
        }
    }
}
