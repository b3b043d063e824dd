import StratusEngine

/// A statement put together piece by piece, each bound value numbered `$n` as it is added, so
/// conditions can be appended in any order without counting parameters by hand.
struct PostgresStatement {
    var sql: String
    private(set) var binds: [any PostgresBinding] = []

    init(_ sql: String) { self.sql = sql }

    /// Binds `value` and returns its `$n`.
    mutating func bind(_ value: any PostgresBinding) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds an index value's key columns and returns the row `(is_text, number, text)`, with
    /// the record id last when given: the right side of a comparison with
    /// ``PostgresIndexColumns/key(_:withID:)``.
    mutating func key(_ columns: PostgresIndexColumns, id: Int64? = nil) -> String {
        var row = "(\(bind(columns.isText)), \(bind(columns.number))::numeric, \(bind(columns.text))"
        if let id { row += ", \(bind(id))" }
        return row + ")"
    }

    mutating func append(_ text: String) { sql += text }
}
