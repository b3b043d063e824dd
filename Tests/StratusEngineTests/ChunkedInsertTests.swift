import GRDB
@testable import StratusEngine
@testable import StratusSQLite
import Testing

/// Rows written many per statement must be exactly the rows written one by one: every row of
/// every full chunk and of the remainder, shared columns in each, duplicates ignored in order.
@Suite struct ChunkedInsertTests {
    @Test(arguments: [0, 1, 255, 256, 257, 600])
    func writesEveryRowOnce(count: Int) throws {
        let queue = try DatabaseQueue()
        let rows = try queue.write { db -> [Row] in
            try db.execute(sql: "CREATE TABLE t (zone INTEGER, field INTEGER, value, record INTEGER, folded TEXT, PRIMARY KEY (zone, field, value, record)) WITHOUT ROWID")
            let insert = try ChunkedInsert("INSERT OR IGNORE INTO t (zone, field, value, record, folded)", shared: 2, perRow: 3, in: db)
            insert.bindShared { $0.bind(1, Int64(7)); $0.bind(2, Int64(9)) }
            // Every tenth row repeats the row before it, which the insert ignores.
            let values = (0..<count).map { $0 % 10 == 9 ? $0 - 1 : $0 }
            try insert.insert(count: values.count) { index, statement, first in
                statement.bind(first, "v\(values[index])")
                statement.bind(first + 1, Int64(values[index]))
                statement.bind(first + 2, values[index] % 2 == 0 ? "even" : nil)
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY record")
        }
        let expected = Array(Set((0..<count).map { $0 % 10 == 9 ? $0 - 1 : $0 })).sorted()
        #expect(rows.map { $0["record"] as Int64 } == expected.map(Int64.init))
        #expect(rows.allSatisfy { ($0["zone"] as Int64) == 7 && ($0["field"] as Int64) == 9 })
        #expect(rows.map { $0["value"] as String } == expected.map { "v\($0)" })
        #expect(rows.map { $0["folded"] as String? } == expected.map { $0 % 2 == 0 ? "even" : nil })
    }
}
