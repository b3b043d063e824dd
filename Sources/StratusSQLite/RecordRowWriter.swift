import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The `record` table's writes and the zone counters that go with them: the one place saving,
/// importing and bulk filling write a record row, so a rule or a speed-up is written once.
/// (Deleting goes through ``RecordWriter/delete(_:catalog:sequence:)``.)
struct RecordRowWriter {
    let db: SQLiteTransaction

    /// Inserts a new record's row; nil when the zone already holds a record of that name (the
    /// caller then updates it). `clearingTombstone`: a record made again under a deleted name
    /// is no longer deleted (a zone known to have no tombstones skips the delete).
    func insert(_ row: RecordRow, clearingTombstone: Bool = true) throws -> Int64? {
        if clearingTombstone { try clearTombstone(of: row) }
        // Bound one by one (see DirectStatement): bulk paths run this millions of times.
        let insert = try DirectStatement("""
            INSERT INTO record (zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent, size, changed_keys)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (zone_id, name) DO NOTHING
            """, in: db)
        insert.bind(1, row.zoneRowID)
        insert.bind(2, row.name)
        insert.bind(3, row.typeID)
        Self.bindContent(of: row, from: 4, to: insert)
        try insert.run()
        return db.sqlite.changesCount == 1 ? db.sqlite.lastInsertedRowID : nil
    }

    /// A record made again under a deleted name is no longer deleted.
    func clearTombstone(of row: RecordRow) throws {
        try db.sqlite.cachedStatement(sql: "DELETE FROM tombstone WHERE zone_id = ? AND name = ?").execute(arguments: [row.zoneRowID, row.name])
    }

    /// The statement ``insert(_:firstID:through:)`` runs, made once per transaction (its SQL is
    /// long: 256 rows of 14 parameters).
    ///
    /// `OR IGNORE`, not `ON CONFLICT (zone_id, name) DO NOTHING`: a statement of many rows that
    /// may abort on a constraint opens a statement savepoint, and a savepoint makes the
    /// full-text table write out the words it holds in memory, every 256 records (a third of
    /// the insert's time, and many small segments to merge). Nothing here binds NULL to a NOT
    /// NULL column, and ids are new, so the name is the only constraint a row can meet.
    func manyRowsInsert() throws -> ChunkedInsert {
        try ChunkedInsert("""
            INSERT OR IGNORE INTO record (id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, \
            parent, size, changed_keys)
            """, shared: 0, perRow: 14, in: db.sqlite)
    }

    /// Inserts `rows` under the row ids `firstID`, `firstID + 1`, ..., many to a statement
    /// (`insert`, from ``manyRowsInsert()``). Run one to a statement, an insert opens the record
    /// table and its four indexes and descends each from the root: 0.36 s for 100,000 rows of a
    /// bench import, against 0.21 s at 256 to a statement (SQLite's C API alone). A row whose
    /// name its zone holds already is skipped, as ``insert(_:clearingTombstone:)`` skips it (its
    /// id stays unused). Returns the positions in `rows` skipped.
    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64, through insert: ChunkedInsert) throws -> Set<Int> {
        let before = db.sqlite.totalChangesCount
        try insert.insert(count: rows.count) { index, statement, first in
            // Read where it lies (`rows[index]` each time): a copy would retain its strings.
            statement.bind(first, firstID + Int64(index))
            statement.bind(first + 1, rows[index].zoneRowID)
            statement.bind(first + 2, rows[index].name)
            statement.bind(first + 3, rows[index].typeID)
            Self.bindContent(of: rows[index], from: first + 4, to: statement)
        }
        guard db.sqlite.totalChangesCount - before < rows.count else { return [] }
        let written = Set(try Int64.fetchAll(db.sqlite, sql: "SELECT id FROM record WHERE id BETWEEN ? AND ?",
                                             arguments: [firstID, firstID + Int64(rows.count) - 1]))
        return Set(rows.indices.filter { !written.contains(firstID + Int64($0)) })
    }

    /// Replaces the row `id`'s fields and system fields (its name, zone and type stay).
    func update(id: Int64, with row: RecordRow) throws {
        // Bound one by one: GRDB would keep the last arguments, this blob among them, in its
        // cached statement for the connection's life.
        let update = try DirectStatement("""
            UPDATE record SET fields = ?, change_tag = ?, seq = ?, created_at = ?, created_by = ?, modified_at = ?, modified_by = ?, parent = ?,
            size = ?, changed_keys = ? WHERE id = ?
            """, in: db)
        Self.bindContent(of: row, from: 1, to: update)
        update.bind(11, id)
        try update.run()
    }

    /// Binds what a save writes besides the row's zone, name and type, in the column order both
    /// statements use: fields, change_tag, seq, created_at, created_by, modified_at, modified_by,
    /// parent, size, changed_keys (ten parameters from `first`).
    private static func bindContent(of row: RecordRow, from first: Int32, to statement: DirectStatement) {
        statement.bind(first, row.blob)
        statement.bind(first + 1, row.changeTag)
        statement.bind(first + 2, row.sequence)
        statement.bind(first + 3, row.createdAt)
        statement.bind(first + 4, row.createdBy)
        statement.bind(first + 5, row.modifiedAt)
        statement.bind(first + 6, row.modifiedBy)
        statement.bind(first + 7, row.parent)
        statement.bind(first + 8, Int64(row.blob.count))
        statement.bind(first + 9, row.changedKeys)
    }

    /// A record's fields rewritten in place by a schema change that dropped some (`changedKeys`).
    func rewriteFields(id: Int64, blob: Data, changeTag: String, sequence: Int64, modifiedAt: Int64, modifiedBy: String, changedKeys: String?) throws {
        let rewrite = try DirectStatement(
            "UPDATE record SET fields = ?, change_tag = ?, seq = ?, modified_at = ?, modified_by = ?, size = ?, changed_keys = ? WHERE id = ?",
            in: db)
        rewrite.bind(1, blob)
        rewrite.bind(2, changeTag)
        rewrite.bind(3, sequence)
        rewrite.bind(4, modifiedAt)
        rewrite.bind(5, modifiedBy)
        rewrite.bind(6, Int64(blob.count))
        rewrite.bind(7, changedKeys)
        rewrite.bind(8, id)
        try rewrite.run()
    }

    /// Gives a record a new change tag and change sequence with no field changed (a share
    /// record whose participants changed).
    func touch(zoneRowID: Int64, name: String, changeTag: String, sequence: Int64, modifiedAt: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE record SET change_tag = ?, seq = ?, modified_at = ?, changed_keys = '' WHERE zone_id = ? AND name = ?",
                       arguments: [changeTag, sequence, modifiedAt, zoneRowID, name])
    }
}
