import BitCollections
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// A set of row ids read from one statement, as a bitmap: a million ids take 128 KB and are
/// added and looked up without hashing.
struct RowIDs {
    private var bits = BitSet()
    /// Ids below zero, which SQLite allows but Stratus never assigns.
    private var negative: Set<Int64> = []

    /// The ids `sql` (one integer column) returns.
    init(of sql: String, _ arguments: StatementArguments, in db: Database) throws {
        let ids = try Int64.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let id = try ids.next() { insert(id) }
    }

    mutating func insert(_ id: Int64) {
        if id >= 0, let index = Int(exactly: id) { bits.insert(index) } else { negative.insert(id) }
    }

    func contains(_ id: Int64) -> Bool {
        if id >= 0, let index = Int(exactly: id) { bits.contains(index) } else { negative.contains(id) }
    }
}
