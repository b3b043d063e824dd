import Foundation
import GRDB
import StratusCloud
import StratusEngine

/// An SQLite store's tables row by row for a copy between stores (``TableCopyStorage``), in
/// the copy's neutral columns (``SQLiteCopiedTables`` maps them).
struct SQLiteTableCopyStorage: TableCopyStorage {
    let db: SQLiteTransaction

    func count(_ table: CopiedTable) throws -> Int {
        try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM \(SQLiteCopiedTables.name(of: table))") ?? 0
    }

    func forEachRow(of table: CopiedTable, _ body: ([CopiedValue]) throws -> Void) throws {
        let selected = SQLiteCopiedTables.selected(table).joined(separator: ", ")
        let rows = try Row.fetchCursor(db.sqlite, sql: "SELECT \(selected) FROM \(SQLiteCopiedTables.name(of: table))\(SQLiteCopiedTables.order(table))")
        while let row = try rows.next() {
            var cells = (0..<row.count).map { Self.value(row[$0] as DatabaseValue) }
            if table == .storeInfo, let bytes = cells[0].bytes, bytes.count == 16 {
                cells[0] = .text(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString)
            }
            try body(cells)
        }
    }

    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) throws {
        let (columns, values) = SQLiteCopiedTables.inserted(table)
        let statement = try db.sqlite.cachedStatement(sql: """
            INSERT INTO \(SQLiteCopiedTables.name(of: table)) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))
            """)
        for row in rows {
            var cells = row
            if table == .storeInfo, let text = cells[0].text {
                guard let uuid = UUID(uuidString: text) else {
                    throw CloudKitError(.internalError, "The store being copied has an identity that is not a UUID (\(text)).")
                }
                cells[0] = .bytes(SQLiteSchemaStorage.uuidBytes(uuid))
            }
            try statement.execute(arguments: StatementArguments(cells.map(Self.databaseValue)))
        }
    }

    func removeAllRows() throws {
        for table in SQLiteCopiedTables.derived + CopiedTable.allCases.reversed().map(SQLiteCopiedTables.name(of:)) {
            try db.sqlite.execute(sql: "DELETE FROM \(table)")
        }
    }

    /// SQLite numbers new rows after the largest id by itself.
    func finishCopy() throws {}

    private static func value(_ value: DatabaseValue) -> CopiedValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer): return .integer(integer)
        case .double(let real): return .real(real)
        case .string(let text): return .text(text)
        case .blob(let bytes): return .bytes(bytes)
        }
    }

    private static func databaseValue(_ value: CopiedValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return integer.databaseValue
        case .real(let real): return real.databaseValue
        case .text(let text): return text.databaseValue
        case .bytes(let bytes): return bytes.databaseValue
        }
    }
}
