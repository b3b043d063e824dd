import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// The runs a full index-row buffer lets go of must come back as one stream in the table's key
/// order: the table's contents would be right in any order, but the merged write is only cheap
/// (pages filled one after another) in that order, so the order itself is what is checked here.
@Suite struct IndexRowSpillTests {
    /// Rows inserted in the order the spill hands them over: a plain table keeps that order in its
    /// row ids, where `field_value` would sort them itself.
    private func mergedRows(_ runs: [HeldFieldRows], field: IndexRowBuffer.FieldKey) throws -> [Row] {
        try mergedRows([field: runs])
    }

    /// Each field's runs written to one spill, a run of every field in turn (as a buffer lets
    /// go of all its fields each time it is full), then merged back through `captured`, whose
    /// `constraint` may refuse a row.
    private func mergedRows(_ runsByField: [IndexRowBuffer.FieldKey: [HeldFieldRows]], constraint: String = "", folder: String? = nil) throws -> [Row] {
        let spill = try IndexRowSpill(in: folder)
        for index in 0..<(runsByField.values.map(\.count).max() ?? 0) {
            for (field, runs) in runsByField where index < runs.count {
                var rows = runs[index]
                rows.sort()
                try spill.write(rows, of: field)
            }
        }
        #expect(spill.fieldKeys == runsByField.keys.sorted())
        return try inserted(by: IndexRowChunker(merging: spill), constraint: constraint)
    }

    /// The rows as a flush inserts them, in the order it does: through `chunker`, into
    /// `captured`, whose `constraint` may refuse a row.
    private func inserted(by chunker: IndexRowChunker, constraint: String = "") throws -> [Row] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE captured (zone_id, field_id, value, record_id, folded\(constraint))")
            let head = "INSERT INTO captured (zone_id, field_id, value, record_id, folded)"
            let numbers = try ChunkedInsert(head, shared: 2, perRow: 2, tail: ", NULL", in: db)
            let strings = try ChunkedInsert(head, shared: 2, perRow: 3, in: db)
            try chunker.insertAll(numbers: numbers, strings: strings) { field in
                for insert in [numbers, strings] { insert.bindShared { $0.bind(1, field.zoneRowID); $0.bind(2, field.fieldID) } }
            }
            return try Row.fetchAll(db, sql: "SELECT zone_id, field_id, value, record_id, folded FROM captured ORDER BY rowid")
        }
    }

    /// The rows given to the spill, as SQLite itself orders them (BINARY collation: numbers
    /// before text, bytes), so a row lost or repeated by the merge shows too.
    private func sqliteOrder(_ runs: [HeldFieldRows], field: IndexRowBuffer.FieldKey) throws -> [Row] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (zone_id, field_id, value, record_id, folded)")
            func add(_ value: DatabaseValueConvertible, _ id: Int64, _ folded: String?) throws {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: [field.zoneRowID, field.fieldID, value, id, folded])
            }
            for rows in runs {
                for (value, id) in rows.integers { try add(value, id, nil) }
                for (value, id) in rows.reals { try add(value, id, nil) }
                for index in 0..<rows.texts.count {
                    let value = rows.texts.text(at: index)
                    try add(value, rows.texts.recordID(at: index), rows.folds ? CaseFolding.key(value) : nil)
                }
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY value, record_id")
        }
    }

    @Test func numbersOfManyRunsComeBackInKeyOrder() throws {
        var generator = SeededGenerator(seed: 7)
        var runs: [HeldFieldRows] = []
        for _ in 0..<40 {
            var rows = HeldFieldRows(folds: false)
            for _ in 0..<generator.below(300) {
                rows.integers.append((Int64(generator.below(2_000)) - 1_000, Int64(generator.below(50_000))))
            }
            runs.append(rows)
        }
        // An empty run and equal values across runs (ties go by record id).
        runs.append(HeldFieldRows(folds: false))
        var ties = HeldFieldRows(folds: false)
        ties.integers = [(5, 9), (5, 1), (Int64.min, 3), (Int64.max, 2)]
        runs.append(ties)
        let field = IndexRowBuffer.FieldKey(zoneRowID: 2, fieldID: 9)
        let merged = try mergedRows(runs, field: field)
        #expect(merged == (try sqliteOrder(runs, field: field)))
        #expect(merged.allSatisfy { ($0[0] as Int64) == 2 && ($0[1] as Int64) == 9 && ($0[4] as DatabaseValue).isNull })
    }

    @Test func realsOrderByValueNotByTheirBits() throws {
        var runs: [HeldFieldRows] = []
        for (run, values) in [[-2.5, 0.25, 3.0], [-100.0, -0.5, 7.75], [0.0, 1e300, -1e-300], [-0.0, 3.0]].enumerated() {
            var rows = HeldFieldRows(folds: false)
            rows.reals = values.enumerated().map { ($0.element, Int64(10 * $0.offset + 3 - run)) }
            runs.append(rows)
        }
        let merged = try mergedRows(runs, field: IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 1))
        #expect(merged.map { $0[2] as Double } == [-100, -2.5, -0.5, -1e-300, 0, 0, 0.25, 3, 3, 7.75, 1e300])
        // 0.0 and -0.0 are one value to SQLite: their rows go by record id, as do the two 3.0s.
        #expect(merged.map { $0[3] as Int64 } == [2, 3, 12, 21, 0, 1, 13, 10, 23, 22, 11])
    }

    @Test func textsComeBackInSQLitesByteOrderWithTheirFoldedKeys() throws {
        var generator = SeededGenerator(seed: 11)
        let words = ["Harbour", "harbour", "Café", "café", "東京", "", "b", "Zeta", "e\u{301}", "é", "👍"]
        // Longer than one read of a run, so values straddle the slices it is read back in.
        let long = String(repeating: "ab", count: 40_000)
        var runs: [HeldFieldRows] = []
        for run in 0..<25 {
            var rows = HeldFieldRows(folds: true)
            for index in 0..<generator.below(400) {
                rows.texts.append(words[generator.below(words.count)] + String(generator.below(30)), recordID: Int64(run * 1_000 + index))
            }
            if run % 10 == 0 { rows.texts.append(long, recordID: Int64(run)) }
            runs.append(rows)
        }
        let field = IndexRowBuffer.FieldKey(zoneRowID: 4, fieldID: 2)
        let merged = try mergedRows(runs, field: field)
        let expected = try sqliteOrder(runs, field: field)
        #expect(merged.count == expected.count)
        // The long value shown by its length, should this fail.
        func shown(_ rows: [Row]) -> [String] { rows.map { ($0[2] as String).count > 100 ? "<\(($0[2] as String).count) characters>" : $0[2] } }
        #expect(shown(merged) == shown(expected))
        #expect(merged.map { $0[3] as Int64 } == expected.map { $0[3] as Int64 })
        #expect(merged.map { $0[4] as String } == expected.map { $0[4] as String })
        #expect(merged.contains { ($0[2] as String) == long })
    }

    /// Chunks of many thousand rows, made on a helper thread while the rows before them are
    /// inserted, from a spill's runs or from rows held in memory: every field whole, in key
    /// order, each under its own zone and field.
    @Test func fieldsLongerThanAChunkComeBackWholeAndInOrder() throws {
        var generator = SeededGenerator(seed: 23)
        let words = ["Harbour", "harbour", "Café", "東京", "zeta", "Ωmega"]
        var runsByField: [IndexRowBuffer.FieldKey: [HeldFieldRows]] = [:]
        for (field, kind) in [(IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 4), 0), (.init(zoneRowID: 1, fieldID: 2), 1), (.init(zoneRowID: 3, fieldID: 1), 2)] {
            runsByField[field] = (0..<7).map { run in
                var rows = HeldFieldRows(folds: kind == 1)
                for index in 0..<(IndexRowChunk.rows / 2 + generator.below(500)) {
                    let id = Int64(run * 10_000 + index)
                    switch kind {
                    case 0: rows.integers.append((Int64(generator.below(100_000)), id))
                    case 1: rows.texts.append(words[generator.below(words.count)] + String(generator.below(5_000)), recordID: id)
                    default: rows.reals.append((Double(generator.below(1_000)) / 8, id))
                    }
                }
                return rows
            }
        }
        let merged = try mergedRows(runsByField)
        var expected: [Row] = []
        for field in runsByField.keys.sorted() { expected += try sqliteOrder(runsByField[field]!, field: field) }
        #expect(merged.count == expected.count)
        #expect(merged.count > 3 * IndexRowChunk.rows)
        #expect(merged == expected)
        // The same rows never spilled: each field's held rows, sorted on the helper thread.
        let held = runsByField.keys.sorted().map { field in
            var all = HeldFieldRows(folds: runsByField[field]![0].folds)
            for rows in runsByField[field]! {
                all.integers += rows.integers
                all.reals += rows.reals
                all.texts.append(contentsOf: rows.texts)
            }
            return (field, all)
        }
        #expect(try inserted(by: IndexRowChunker(sorting: HeldRowsSorter(held))) == expected)
    }

    /// An insert refused halfway stops the merge: the error comes back, and the helper thread
    /// is not left waiting for a writer that has gone (it would hold the spill's file open).
    @Test func aRefusedInsertStopsTheMerge() throws {
        let folder = try TemporaryDirectory("stratus-spill-stop")
        defer { folder.remove() }
        // Many more chunks than the helper merges ahead: it is still merging when the insert fails.
        var runs: [HeldFieldRows] = []
        for run in 0..<5 {
            var rows = HeldFieldRows(folds: false)
            rows.integers = (0..<IndexRowChunk.rows * 4).map { (Int64($0 * 5 + run), Int64($0 * 5 + run)) }
            runs.append(rows)
        }
        #expect(throws: DatabaseError.self) {
            try mergedRows([IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 1): runs], constraint: ", CHECK (record_id <> 1234)",
                           folder: folder.url.path)
        }
        #expect(Self.openSpills(in: folder.url.path).isEmpty, "the helper let go of the spill before the insert threw")
    }

    /// Rows held in memory are sorted a field ahead of the chunks being made; an insert refused
    /// halfway stops that sorting too, and the error comes back instead of a wait.
    @Test func aRefusedInsertStopsTheSortingAhead() throws {
        let fields = (0..<6).map { index in
            var rows = HeldFieldRows(folds: false)
            rows.integers = (0..<IndexRowChunk.rows * 2).reversed().map { (Int64($0), Int64($0)) }
            return (IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: Int64(index)), rows)
        }
        #expect(throws: DatabaseError.self) {
            try inserted(by: IndexRowChunker(sorting: HeldRowsSorter(fields)), constraint: ", CHECK (field_id <> 2 OR record_id <> 1234)")
        }
        // The same rows, not refused: every field whole and sorted.
        let rows = try inserted(by: IndexRowChunker(sorting: HeldRowsSorter(fields)))
        #expect(rows.count == 6 * 2 * IndexRowChunk.rows)
        #expect(rows.map { [$0[1] as Int64, $0[2] as Int64] } == (0..<6).flatMap { field in (0..<2 * IndexRowChunk.rows).map { [Int64(field), Int64($0)] } })
    }

    /// A cancelled sorter finishes the field under way and sorts no more; when `cancel` returns
    /// its thread has stopped, so no held rows outlive the write.
    @Test func aCancelledSorterStopsAfterTheFieldUnderWay() {
        var generator = SeededGenerator(seed: 5)
        let fields = (0..<8).map { index in
            var rows = HeldFieldRows(folds: false)
            rows.integers = (0..<50_000).map { (Int64(generator.below(1_000_000)), Int64($0)) }
            return (IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: Int64(index)), rows)
        }
        let sorter = HeldRowsSorter(fields)
        // Cancelled at once, while the next field is being sorted.
        let first = sorter.take(0)
        sorter.cancel()
        let sorted = sorter.sortedCount
        #expect(zip(first.integers, first.integers.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) })
        #expect(sorted < 8, "the sorter went on after the cancel")
        // Longer than a field takes to sort: a sorter still running would have sorted another.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(sorter.sortedCount == sorted, "the sorter's thread was still running after the cancel returned")
        // Not cancelled: every field, each taken once.
        let whole = HeldRowsSorter(fields)
        #expect(whole.keys == fields.map(\.0))
        for index in fields.indices { #expect(whole.take(index).integers.count == 50_000) }
        whole.cancel()
        #expect(whole.sortedCount == 8)
    }

    /// Descriptors of this process open on (unlinked) spill files in `folder`.
    private static func openSpills(in folder: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?.hasPrefix(folder) == true }
    }

    /// A run that cannot be read back whole (its file cut short under it) fails the insert,
    /// after the chunks merged before the damage: the import rolls back instead of committing
    /// without those rows.
    @Test func aDamagedSpillFailsTheInsert() throws {
        let folder = try TemporaryDirectory("stratus-spill-damaged")
        defer { folder.remove() }
        let spill = try IndexRowSpill(in: folder.url.path)
        let field = IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 1)
        for run in 0..<2 {
            var rows = HeldFieldRows(folds: false)
            rows.integers = (0..<IndexRowChunk.rows * 4).map { (Int64($0 * 2 + run), Int64($0 * 2 + run)) }
            rows.sort()
            try spill.write(rows, of: field)
        }
        let descriptor = try #require(Self.openSpills(in: folder.url.path).first)
        // Each row is 16 bytes: the second run loses its last 12,500 rows.
        #expect(truncate("/proc/self/fd/" + descriptor, off_t(2 * IndexRowChunk.rows * 4 * 16 - 200_000)) == 0)
        #expect(throws: CloudKitError.self) { try inserted(by: IndexRowChunker(merging: spill)) }
    }

    /// A writer slower than the helper: the helper fills its queue and waits, and is woken for
    /// every chunk the writer takes; every row arrives, each field's shared columns bound once.
    @Test func aSlowWriterGetsEveryChunk() throws {
        let fields = (0..<10).map { index in
            var rows = HeldFieldRows(folds: false)
            rows.integers = (0..<IndexRowChunk.rows + 1).map { (Int64($0), Int64(index)) }
            return (IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: Int64(index)), rows)
        }
        let queue = try DatabaseQueue()
        var started: [Int64] = []
        let count = try queue.write { db in
            try db.execute(sql: "CREATE TABLE captured (zone_id, field_id, value, record_id, folded)")
            let head = "INSERT INTO captured (zone_id, field_id, value, record_id, folded)"
            let numbers = try ChunkedInsert(head, shared: 2, perRow: 2, tail: ", NULL", in: db)
            let strings = try ChunkedInsert(head, shared: 2, perRow: 3, in: db)
            try IndexRowChunker(sorting: HeldRowsSorter(fields)).insertAll(numbers: numbers, strings: strings) { field in
                started.append(field.fieldID)
                Thread.sleep(forTimeInterval: 0.02)
                for insert in [numbers, strings] { insert.bindShared { $0.bind(1, field.zoneRowID); $0.bind(2, field.fieldID) } }
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM captured") ?? 0
        }
        #expect(started == Array(0..<10))
        #expect(count == 10 * (IndexRowChunk.rows + 1))
    }

    @Test func referenceNamesAreNotFolded() throws {
        var rows = HeldFieldRows(folds: false)
        rows.texts.append("Thing-B", recordID: 1)
        rows.texts.append("thing-a", recordID: 2)
        let merged = try mergedRows([rows], field: IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 3))
        #expect(merged.map { $0[2] as String } == ["Thing-B", "thing-a"])
        #expect(merged.allSatisfy { ($0[4] as DatabaseValue).isNull })
    }

    @Test func theFileGoesInTheStoresFolderAndLeavesNothingThere() throws {
        let folder = try TemporaryDirectory("stratus-spill")
        defer { folder.remove() }
        let spill = try IndexRowSpill(in: folder.url.path)
        var rows = HeldFieldRows(folds: false)
        rows.integers = [(1, 1)]
        rows.sort()
        try spill.write(rows, of: IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: 1))
        // Unlinked as soon as made: the folder shows nothing, though the runs are written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        #expect(throws: CloudKitError.self) { try IndexRowSpill(in: folder.url.path + "/missing") }
    }
}
