import StratusEngine

/// The `WHERE` terms of a range's rows on `field_value f`: its bounds and the keyset position a
/// page resumes after, written so that PostgreSQL's index scan starts at one end and stops at
/// the other.
///
/// PostgreSQL's B-tree scan cannot tell which of several row comparisons on the same columns is
/// the tighter: given a bound and a keyset position as two `(is_text, number, text)` rows, it
/// may start at the bound and step through every row up to the position (a deep page of a
/// `BEGINSWITH` read the rows of all the pages before it). So a bound the position is past is
/// left out, and when the two ends left are of one kind (both texts, or both numbers), the
/// kind is pinned with equalities and each end compares only the columns after it. Each form
/// selects exactly the rows the plain row comparisons do.
struct PostgresRangeConditions {
    /// One end of the rows: a bound of the range, or the keyset position (record id last).
    private enum End {
        case bound(PostgresIndexColumns, inclusive: Bool)
        case position(PostgresIndexColumns, id: Int64)

        var columns: PostgresIndexColumns {
            switch self {
            case .bound(let columns, _), .position(let columns, _): columns
            }
        }
    }

    var lower: QueryPlan.Bound?
    var upper: QueryPlan.Bound?
    /// The keyset position rows come after, in the scan's direction.
    var after: (key: IndexValue, id: Int64)?
    /// Whether the scan reads from the largest value down.
    var descending: Bool

    /// Appends the terms; throws a stale cursor for a position no index holds.
    func append(to statement: inout PostgresStatement) throws {
        var lower = lower, upper = upper
        var position: PostgresIndexColumns?
        if let after {
            guard let key = PostgresIndexColumns(after.key) else { throw QueryExecutor.staleCursor }
            position = key
            // The position is inside the range: the bound behind it says nothing more.
            if descending, let bound = upper, IndexValue.order(after.key, bound.value) < 0 { upper = nil }
            if !descending, let bound = lower, IndexValue.order(after.key, bound.value) > 0 { lower = nil }
        }
        var low = lower.map { bound in PostgresIndexColumns(bound.value).map { End.bound($0, inclusive: bound.inclusive) } }
        var high = upper.map { bound in PostgresIndexColumns(bound.value).map { End.bound($0, inclusive: bound.inclusive) } }
        if let position, let id = after?.id {
            if descending {
                if high == nil { high = .some(.position(position, id: id)) }
            } else if low == nil {
                low = .some(.position(position, id: id))
            }
        }
        // Both ends of one kind, and nothing else to compare: the pinned form.
        if case .some(.some(let start)) = low, case .some(.some(let end)) = high, start.columns.isText == end.columns.isText,
           Self.count(lower, upper, after) == 2 {
            statement.append(start.columns.isText ? " AND f.is_text AND f.number = 0" : " AND f.is_text = false")
            Self.append(start, above: true, to: &statement)
            Self.append(end, above: false, to: &statement)
            return
        }
        PostgresDriverStatement.appendBounds(lower: lower, upper: upper, to: &statement)
        if let position, let id = after?.id {
            statement.append(" AND \(PostgresIndexColumns.key("f", withID: true)) \(descending ? "<" : ">") \(statement.key(position, id: id))")
        }
    }

    /// How many ends the terms hold (bounds left, and the position).
    private static func count(_ lower: QueryPlan.Bound?, _ upper: QueryPlan.Bound?, _ after: (key: IndexValue, id: Int64)?) -> Int {
        (lower == nil ? 0 : 1) + (upper == nil ? 0 : 1) + (after == nil ? 0 : 1)
    }

    /// One end on the columns after the pinned kind: the text (and record id) for texts; the
    /// number, then the text, for numbers.
    private static func append(_ end: End, above: Bool, to statement: inout PostgresStatement) {
        switch end {
        case .position(let columns, let id) where columns.isText:
            statement.append(" AND (f.text, f.record_id) \(above ? ">" : "<") (\(statement.bind(columns.text)), \(statement.bind(id)))")
        case .position(let columns, let id):
            let row = "(\(statement.bind(columns.number))::numeric, \(statement.bind(columns.text)), \(statement.bind(id)))"
            statement.append(" AND (f.number, f.text, f.record_id) \(above ? ">" : "<") \(row)")
        case .bound(let columns, let inclusive) where columns.isText:
            statement.append(" AND f.text \(above ? ">" : "<")\(inclusive ? "=" : "") \(statement.bind(columns.text))")
        case .bound(let columns, let inclusive):
            // (number, text) compared with (n, t): the number's side of n, or n and the text's.
            let number = "\(statement.bind(columns.number))::numeric"
            let weak = above ? ">=" : "<=", strict = above ? ">" : "<"
            statement.append(" AND f.number \(weak) \(number) AND (f.number \(strict) \(number)")
            statement.append(" OR f.text \(strict)\(inclusive ? "=" : "") \(statement.bind(columns.text)))")
        }
    }
}
