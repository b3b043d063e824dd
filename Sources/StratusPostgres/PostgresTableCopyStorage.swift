import Foundation
import StratusCloud
import StratusEngine

/// A PostgreSQL store's tables row by row for a copy between stores (``TableCopyStorage``),
/// in the copy's neutral columns (``PostgresCopiedTables`` maps them). Rows are read through
/// a cursor a page at a time, and written many to a statement.
struct PostgresTableCopyStorage: TableCopyStorage {
    let db: PostgresTransaction

    /// Rows fetched from the cursor at a time.
    static let page = 1_000

    func count(_ table: CopiedTable) throws -> Int {
        Int(try db.link.integer("SELECT count(*) FROM \(PostgresCopiedTables.name(of: table))") ?? 0)
    }

    func forEachRow(of table: CopiedTable, _ body: ([CopiedValue]) throws -> Void) throws {
        let selected = PostgresCopiedTables.selected(table).joined(separator: ", ")
        let kinds = table.columns.map(\.kind)
        try db.link.run("DECLARE stratus_copy NO SCROLL CURSOR FOR SELECT \(selected) FROM \(PostgresCopiedTables.name(of: table))\(PostgresCopiedTables.order(table))")
        // Closed however the reading ends, so the transaction can read the next table (or this
        // one again, when the destination's write is retried).
        defer { _ = try? db.link.run("CLOSE stratus_copy") }
        while true {
            let rows = try db.link.rows("FETCH \(Self.page) FROM stratus_copy")
            for row in rows {
                try body(try kinds.indices.map { try Self.value(row, column: $0, kind: kinds[$0]) })
            }
            if rows.count < Self.page { break }
        }
    }

    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) throws {
        guard !rows.isEmpty else { return }
        let (columns, values) = PostgresCopiedTables.inserted(table)
        let own = PostgresCopiedTables.own(table)
        var tuples: [String] = []
        var binds: [any PostgresBinding] = []
        for row in rows {
            let first = binds.count
            tuples.append("(" + (values.indices.map { values[$0](first + $0 + 1) } + own.values).joined(separator: ", ") + ")")
            binds += row.map(Self.binding)
        }
        try db.link.run("INSERT INTO \(PostgresCopiedTables.name(of: table)) (\((columns + own.columns).joined(separator: ", "))) VALUES "
            + tuples.joined(separator: ", "), binds)
    }

    func removeAllRows() throws {
        for table in CopiedTable.allCases.reversed() {
            try db.link.run("DELETE FROM \(PostgresCopiedTables.name(of: table))")
        }
    }

    /// Each sequence continues after the largest copied id.
    func finishCopy() throws {
        for (table, column) in PostgresCopiedTables.numbered {
            try db.link.rows("""
                SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), COALESCE((SELECT max(\(column)) FROM \(table)), 0) + 1, false)
                """)
        }
    }

    private static func value(_ row: PostgresRowReader, column: Int, kind: CopiedTable.Kind) throws -> CopiedValue {
        switch kind {
        case .integer: return try row.optionalInt(column).map(CopiedValue.integer) ?? .null
        case .real: return try row.double(column).map(CopiedValue.real) ?? .null
        case .text: return try row.optionalString(column).map(CopiedValue.text) ?? .null
        case .bytes: return try row.optionalData(column).map(CopiedValue.bytes) ?? .null
        }
    }

    private static func binding(_ value: CopiedValue) -> any PostgresBinding {
        switch value {
        case .null: return String?.none
        case .integer(let integer): return integer
        case .real(let real): return real
        case .text(let text): return text
        case .bytes(let bytes): return bytes
        }
    }
}
