import Foundation
import StratusCloud
import StratusEngine

/// The statements that read a query plan's driver on PostgreSQL, as ``PostgresQueryStorage``
/// runs them: `field_value` for a field's values and ranges, the `record` table's
/// `(zone, type, time, id)` indexes for its times, its `tokens` (GIN) for words. Each reads in
/// the driver's order from a keyset position, so a page costs its rows, not the zone's.
struct PostgresDriverStatement {
    let zoneRowID: Int64
    let typeID: Int64

    /// A driver row's columns: the record (``PostgresRecordStorage/columns``, 0...11), then its
    /// index value (12...15, see ``PostgresIndexColumns/value(isText:number:text:isReal:)``).
    static let recordColumns = PostgresRecordStorage.columns.split(separator: ",")
        .map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    static let keyColumn = 12

    /// The driver's rows after (`afterKey`, `afterID`), at most `count`, in its order:
    /// by value (`descending != backwards`) for ranges and times, by record id (`backwards`)
    /// for one value's rows and for words, by modification time (`backwards`) for the type.
    func rows(of driver: QueryPlan.Driver, descending plainDescending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
              backwards: Bool) throws -> PostgresStatement {
        let descending = plainDescending != backwards
        let (comparison, direction) = descending ? ("<", "DESC") : (">", "ASC")
        let (idComparison, idDirection) = backwards ? ("<", "DESC") : (">", "ASC")
        let columns = Self.recordColumns
        var statement: PostgresStatement
        switch driver {
        case .values(let fieldID, let keys, let folded, _):
            statement = PostgresStatement("SELECT \(columns), \(PostgresIndexColumns.selected("f")) FROM field_value f JOIN record r ON r.id = f.record_id")
            appendField(fieldID, to: &statement)
            appendEquals(keys[0], folded: folded, to: &statement)
            if let afterID { statement.append(" AND f.record_id \(idComparison) \(statement.bind(afterID))") }
            statement.append(" ORDER BY f.record_id \(idDirection)")
        case .range(let fieldID, let lower, let upper, _):
            statement = PostgresStatement("SELECT \(columns), \(PostgresIndexColumns.selected("f")) FROM field_value f JOIN record r ON r.id = f.record_id")
            appendField(fieldID, to: &statement)
            let after = afterKey.flatMap { key in afterID.map { (key: key, id: $0) } }
            try PostgresRangeConditions(lower: lower, upper: upper, after: after, descending: descending).append(to: &statement)
            statement.append(" ORDER BY f.is_text \(direction), f.number \(direction), f.text \(direction), f.record_id \(direction)")
        case .systemTime(let time, let lower, let upper):
            let column = "r." + Self.column(time)
            statement = recordStatement(key: column)
            try appendTimeBounds(column, lower: lower, upper: upper, to: &statement)
            if let afterKey, let afterID {
                guard case .integer(let time) = afterKey else { throw QueryExecutor.staleCursor }
                statement.append(" AND (\(column), r.id) \(comparison) (\(statement.bind(time)), \(statement.bind(afterID)))")
            }
            statement.append(" ORDER BY \(column) \(direction), r.id \(direction)")
        case .text(let tokens, let matchAll):
            statement = recordStatement(key: "0")
            appendTokens(tokens, matchAll: matchAll, to: &statement)
            if let afterID { statement.append(" AND r.id \(idComparison) \(statement.bind(afterID))") }
            statement.append(" ORDER BY r.id \(idDirection)")
        case .typeScan:
            statement = recordStatement(key: "r.modified_at")
            if let afterKey, let afterID {
                guard case .integer(let time) = afterKey else { throw QueryExecutor.staleCursor }
                statement.append(" AND (r.modified_at, r.id) \(idComparison) (\(statement.bind(time)), \(statement.bind(afterID)))")
            }
            statement.append(" ORDER BY r.modified_at \(idDirection), r.id \(idDirection)")
        case .nothing, .names, .location:
            throw QueryExecutor.staleCursor
        }
        statement.append(" LIMIT \(statement.bind(count))")
        return statement
    }

    /// The type's records with an integer column as their index value.
    private func recordStatement(key: String) -> PostgresStatement {
        var statement = PostgresStatement("SELECT \(Self.recordColumns), false, (\(key))::text, '', false FROM record r")
        statement.append(" WHERE r.zone_id = \(statement.bind(zoneRowID)) AND r.type_id = \(statement.bind(typeID))")
        return statement
    }

    /// `WHERE` this zone's rows of one field (of `field_value f`).
    func appendField(_ fieldID: Int64, to statement: inout PostgresStatement) {
        statement.append(" WHERE f.zone_id = \(statement.bind(zoneRowID)) AND f.field_id = \(statement.bind(fieldID))")
    }

    /// The rows equal to `key`: its value, or (`folded`) its case-folded string.
    func appendEquals(_ key: IndexValue, folded: Bool, to statement: inout PostgresStatement) {
        if folded {
            // Only strings have a folded key, and a folded key is a string.
            guard case .text(let text) = key else { return statement.append(" AND false") }
            statement.append(" AND f.folded = \(statement.bind(text)) AND f.folded IS NOT NULL")
        } else {
            guard let columns = PostgresIndexColumns(key) else { return statement.append(" AND false") }
            statement.append(" AND \(PostgresIndexColumns.key("f", withID: false)) = \(statement.key(columns))")
        }
    }

    /// A range's bounds on `field_value f`'s key.
    static func appendBounds(lower: QueryPlan.Bound?, upper: QueryPlan.Bound?, to statement: inout PostgresStatement) {
        for (bound, isLower) in [(lower, true), (upper, false)] {
            guard let bound else { continue }
            guard let columns = PostgresIndexColumns(bound.value) else {
                statement.append(" AND false")
                continue
            }
            let comparison = (isLower ? ">" : "<") + (bound.inclusive ? "=" : "")
            statement.append(" AND \(PostgresIndexColumns.key("f", withID: false)) \(comparison) \(statement.key(columns))")
        }
    }

    /// Bounds on a time column (integers). SQLite compares an integer column with any value, so
    /// a real bound becomes the integer bound that keeps the same rows, and a text bound (after
    /// every number) keeps every row as an upper bound and none as a lower one.
    func appendTimeBounds(_ column: String, lower: QueryPlan.Bound?, upper: QueryPlan.Bound?, to statement: inout PostgresStatement) throws {
        for (bound, isLower) in [(lower, true), (upper, false)] {
            guard let bound else { continue }
            switch bound.value {
            case .integer(let number):
                let comparison = (isLower ? ">" : "<") + (bound.inclusive ? "=" : "")
                statement.append(" AND \(column) \(comparison) \(statement.bind(number))")
            case .real(let number):
                // The first (or last) integer the bound keeps.
                let edge = isLower ? (bound.inclusive ? number.rounded(.up) : number.rounded(.down) + 1)
                                   : (bound.inclusive ? number.rounded(.down) : number.rounded(.up) - 1)
                if edge.isNaN || (isLower ? edge > 9.2e18 : edge < -9.2e18) {
                    statement.append(" AND false")
                } else if isLower ? edge > -9.2e18 : edge < 9.2e18 {
                    statement.append(" AND \(column) \(isLower ? ">=" : "<=") \(statement.bind(Int64(edge)))")
                }
            case .text:
                if isLower { statement.append(" AND false") }
            }
        }
    }

    /// Records holding all (`matchAll`) or any of the words, read from the GIN index.
    func appendTokens(_ tokens: [String], matchAll: Bool, to statement: inout PostgresStatement) {
        statement.append(" AND r.tokens \(matchAll ? "@>" : "&&") \(statement.bind(tokens))")
    }

    static func column(_ time: QueryPlan.SystemTime) -> String {
        switch time {
        case .created: "created_at"
        case .modified: "modified_at"
        }
    }
}
