import StratusEngine

/// Where an SQLite store's tables differ from the copy's neutral columns (``CopiedTable``):
/// a user's table and column names, a share's state where the copy has a live flag, and the
/// columns the backend fills itself (the one store info row's id and format).
enum SQLiteCopiedTables {
    /// The SQLite table behind `table`.
    static func name(of table: CopiedTable) -> String {
        table == .user ? "user" : table.rawValue
    }

    /// What a SELECT reads for each column of `table`, in order.
    static func selected(_ table: CopiedTable) -> [String] {
        table.columns.map { column in
            if table == .share && column.name == "live" { return "CASE WHEN state = 0 THEN 1 ELSE 0 END" }
            return quoted(stored(column.name))
        }
    }

    /// The columns an INSERT names and the value it writes to each (`?` a copied cell, in
    /// column order), with the backend's own columns after them.
    static func inserted(_ table: CopiedTable) -> (columns: [String], values: [String]) {
        var columns: [String] = []
        var values: [String] = []
        for column in table.columns {
            if table == .share && column.name == "live" {
                columns.append("state")
                values.append("CASE WHEN ? = 1 THEN 0 ELSE 1 END")
            } else {
                columns.append(quoted(stored(column.name)))
                values.append("?")
            }
        }
        switch table {
        case .storeInfo:
            columns += ["id", "format_version"]
            values += ["1", String(StoreMigrations.formatVersion)]
        case .subscriptionState:
            columns.append("id")
            values.append("1")
        default: break
        }
        return (columns, values)
    }

    /// The order rows are read in.
    static func order(_ table: CopiedTable) -> String {
        table.key.isEmpty ? "" : " ORDER BY " + table.key.map { quoted(stored($0)) }.joined(separator: ", ")
    }

    /// Tables the backend derives from the records, emptied before a copy fills the store.
    static let derived = ["field_value", "record_text", "reference_edge"]

    /// The SQLite name of a neutral column: the tables of users' doings say `user`.
    private static func stored(_ column: String) -> String {
        column == "user_name" ? "user" : column
    }

    private static func quoted(_ name: String) -> String { "\"\(name)\"" }
}
