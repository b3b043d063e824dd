import StratusEngine

/// Where a PostgreSQL store's tables differ from the copy's neutral columns (``CopiedTable``):
/// the users' table name, flags kept as booleans, roles kept as an array, and the columns the
/// backend fills itself (the store info row's id and format).
enum PostgresCopiedTables {
    /// The PostgreSQL table behind `table`.
    static func name(of table: CopiedTable) -> String {
        table == .user ? "app_user" : table.rawValue
    }

    /// What a SELECT reads for each column of `table`, in order.
    static func selected(_ table: CopiedTable) -> [String] {
        table.columns.map { column in
            let name = quoted(column.name)
            if isFlag(column.name, of: table) { return "CASE WHEN \(name) THEN 1::bigint ELSE 0::bigint END" }
            if table == .user && column.name == "roles" { return "array_to_string(\(name), ',')" }
            return name
        }
    }

    /// The columns an INSERT names and the value written to each, `$n` standing for the nth
    /// cell of a row of `width` cells that starts at cell `first`, the backend's own after them.
    static func inserted(_ table: CopiedTable) -> (columns: [String], values: [(Int) -> String]) {
        var columns: [String] = []
        var values: [(Int) -> String] = []
        for column in table.columns {
            columns.append(quoted(column.name))
            if isFlag(column.name, of: table) {
                values.append { "($\($0)::bigint <> 0)" }
            } else if table == .user && column.name == "roles" {
                values.append { "string_to_array($\($0)::text, ',')" }
            } else {
                values.append { "$\($0)" }
            }
        }
        return (columns, values)
    }

    /// The backend's own columns of `table` and their values, after the copied ones.
    static func own(_ table: CopiedTable) -> (columns: [String], values: [String]) {
        switch table {
        case .storeInfo: return (["id", "format_version"], ["1", String(PostgresTables.formatVersion)])
        case .subscriptionState: return (["id"], ["1"])
        default: return ([], [])
        }
    }

    /// The order rows are read in.
    static func order(_ table: CopiedTable) -> String {
        table.key.isEmpty ? "" : " ORDER BY " + table.key.map(quoted).joined(separator: ", ")
    }

    /// Tables whose new rows take ids from a sequence, and that id's column.
    static let numbered: [(table: String, column: String)] = [
        ("zone", "id"), ("record_type", "id"), ("schema_field", "id"), ("record", "id"), ("share", "id"), ("subscription", "id"),
        ("notification", "seq"), ("fault", "id"), ("fault_event", "id"), ("request_log", "id"),
    ]

    private static func isFlag(_ column: String, of table: CopiedTable) -> Bool {
        switch (table, column) {
        case (.recordType, "retired"), (.share, "live"), (.notification, "read"), (.fault, "spent"), (.pushToken, "registered"): return true
        default: return false
        }
    }

    private static func quoted(_ name: String) -> String { "\"\(name)\"" }
}
