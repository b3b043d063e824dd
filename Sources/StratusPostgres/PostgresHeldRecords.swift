import StratusCloud
import StratusEngine

/// New records of one write transaction held back and inserted many to a statement, where a
/// statement each cost a round trip each: a save of 400 new records sent 400 inserts. The
/// transaction's first new record is inserted at once (a save of one record stays one round
/// trip); later ones take ids reserved from the table's sequence ahead of them, a growing block
/// at a time, and wait in ``rows`` until the connection's next statement of any kind
/// (``PostgresLink/beforeStatement``), so nothing the transaction reads or writes afterwards
/// misses them.
struct PostgresHeldRecords {
    /// A record's row with the id reserved for it and what its columns derive from its fields.
    struct Row {
        var id: Int64
        var row: RecordRow
        var tokens: [String]
        var targets: [String]
    }

    /// Rows per insert statement: fifteen binds each, under PostgreSQL's 65,535.
    static let rowsPerStatement = 4_000
    /// The most ids reserved in one statement; blocks double from ``firstReservation``.
    static let largestReservation = 1_024
    static let firstReservation = 8

    /// The rows waiting, in the order they were saved.
    var rows: [Row] = []
    /// Ids reserved and not yet taken, the lowest last (taken from the end).
    var reserved: [Int64] = []
    /// Whether this transaction inserted a record at once already.
    var insertedOne = false
    /// How many ids the next reservation takes.
    var nextReservation = firstReservation

    /// The insert of `rows` (at most ``rowsPerStatement``) and its binds: each row with its
    /// reserved id, a name the zone holds already left out (``RETURNING`` tells which).
    static func insert(_ rows: ArraySlice<Row>) -> (sql: String, binds: [any PostgresBinding]) {
        var values: [String] = []
        var binds: [any PostgresBinding] = []
        values.reserveCapacity(rows.count)
        binds.reserveCapacity(rows.count * 15)
        for held in rows {
            let first = binds.count + 1
            values.append("(" + (first..<first + 15).map { "$\($0)" }.joined(separator: ", ") + ")")
            binds.append(held.id)
            binds += PostgresRecordStorage.binds(held.row)
            binds += [held.tokens, held.targets]
        }
        return ("""
            INSERT INTO record (id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent,
                                changed_keys, tokens, delete_targets)
            VALUES \(values.joined(separator: ", ")) ON CONFLICT (zone_id, name) DO NOTHING RETURNING name
            """, binds)
    }
}
