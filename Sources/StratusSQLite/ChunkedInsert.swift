import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// An INSERT that writes many rows per statement: `VALUES (?1, ?2, ?, ?), (?1, ?2, ?, ?), ...`,
/// where each `?` takes the next number (3, 4, 5, 6 ...).
///
/// Run once per row, an INSERT opens its table and index cursors and descends each B-tree from
/// the root; for the small rows of `field_value` that cost more than the insert itself (3.4 µs
/// a row, against 1.4 µs for the same rows in one `INSERT ... SELECT`). Many rows per statement
/// keep the cursors open and positioned. Columns every row shares (`shared`) are bound once, as
/// the first parameters.
struct ChunkedInsert {
    static let rowsPerChunk = 256

    private let chunk: DirectStatement
    private let single: DirectStatement
    private let shared: Int32
    private let perRow: Int32

    /// - Parameters:
    ///   - head: the statement up to `VALUES`, e.g. `INSERT OR IGNORE INTO t (a, b, c)`.
    ///   - shared: how many leading columns take the same value in every row.
    ///   - perRow: how many columns each row binds after those.
    ///   - tail: SQL after each row's parameters, inside its parentheses (`, NULL`), or empty.
    init(_ head: String, shared: Int, perRow: Int, tail: String = "", in db: GRDB.Database) throws {
        func sql(rows: Int, numbered: Bool) -> String {
            let sharedPart = (0..<shared).map { "?\($0 + 1)" }
            let tuples = (0..<rows).map { row in
                let own = (0..<perRow).map { numbered ? "?\(shared + row * perRow + $0 + 1)" : "?" }
                return "(" + (sharedPart + own).joined(separator: ", ") + tail + ")"
            }
            return head + " VALUES " + tuples.joined(separator: ", ")
        }
        // In the chunk only the shared parameters are numbered: SQLite looks each numbered one
        // up in a list of those met so far, so numbering all 3,584 of a record chunk took 20 ms
        // to prepare, against 1.5 ms with the rows' own parameters left to count on. The
        // single row stays numbered, so its SQL differs from any statement GRDB runs with
        // arguments: GRDB's cache hands out one statement per SQL text, and sharing the
        // `reference_edge` insert (`VALUES (?, ?, ?)`, also a save's) between the two lost a
        // DELETE_SELF edge in `IndexUpdateDifferentialTests`. How, inside GRDB, is not pinned
        // down; keeping the texts apart is what the test holds to.
        chunk = try DirectStatement(sql(rows: ChunkedInsert.rowsPerChunk, numbered: false), in: db)
        single = try DirectStatement(sql(rows: 1, numbered: true), in: db)
        self.shared = Int32(shared)
        self.perRow = Int32(perRow)
    }

    /// Binds the shared columns (parameters 1...shared) for the rows that follow.
    func bindShared(_ bind: (DirectStatement) -> Void) {
        bind(chunk)
        bind(single)
    }

    /// Inserts `count` rows, in order: `bindRow(row, statement, first)` binds row `row`'s own
    /// columns as parameters `first`, `first + 1` ... of `statement`; an error it throws stops
    /// the insert there.
    func insert(count: Int, bindRow: (Int, DirectStatement, Int32) throws -> Void) throws {
        var row = 0
        let rowsPerChunk = ChunkedInsert.rowsPerChunk
        while count - row >= rowsPerChunk {
            for slot in 0..<rowsPerChunk { try bindRow(row + slot, chunk, shared + Int32(slot) * perRow + 1) }
            try chunk.run()
            row += rowsPerChunk
        }
        while row < count {
            try bindRow(row, single, shared + 1)
            try single.run()
            row += 1
        }
    }
}
