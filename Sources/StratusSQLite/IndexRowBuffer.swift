import Foundation
import GRDB
import GRDBSQLite
import StratusCloud
import StratusEngine
import StratusModel

/// Holds back the `field_value` and `reference_edge` rows of a bulk write and inserts them
/// sorted by primary key.
///
/// Both tables are clustered on their key (`WITHOUT ROWID`), so rows written in record order
/// land all over their B-trees: at a million records that is several random page writes per
/// row. Sorted, the same rows are appended page after page (into an empty tree) or at least
/// visit each page once. Rows are kept per field (``HeldFieldRows``). An import writes through
/// one buffer. When it holds `limit` rows it lets them go, sorted, into a temporary file
/// (``IndexRowSpill``), keeping memory bounded; a flush (the transaction's end, or a record
/// replaced whose rows may be held) merges them all into the tables, in the transaction.
final class IndexRowBuffer: IndexRowBuffering {
    /// The rows of one field of one zone: the leading columns of `field_value`'s key.
    struct FieldKey: Hashable, Comparable {
        var zoneRowID: Int64
        var fieldID: Int64

        static func < (a: FieldKey, b: FieldKey) -> Bool { (a.zoneRowID, a.fieldID) < (b.zoneRowID, b.fieldID) }
    }

    private let db: SQLiteTransaction
    private let limit: Int
    /// Each field's held rows, at the slot `slots` gives its key. Unchecked for overlapping
    /// access (this buffer is one transaction's, on its one thread, and nothing here calls out
    /// while it changes them): the runtime's check cost two calls for each value held.
    @exclusivity(unchecked) private var fields: [HeldFieldRows] = []
    private var fieldKeys: [FieldKey] = []
    private var slots: [FieldKey: Int] = [:]
    /// The slot of the field last held under each of 64 field ids (`fieldID % 64`). Records of
    /// a type bring the same fields again and again; found here, a value's field is not hashed
    /// and looked up (two hashes a value, with the schema's, were a tenth of the writer's work).
    @exclusivity(unchecked) private var recentSlots = [(key: FieldKey, slot: Int)](repeating: (FieldKey(zoneRowID: -1, fieldID: -1), 0), count: 64)
    /// The held `reference_edge` rows: targets copied as bytes (``HeldTexts``, for the reason
    /// given there), each with its source as the row's record, and the zones alongside.
    private var edgeTargets = HeldTexts()
    private var edgeZones: [Int64] = []
    @exclusivity(unchecked) private var held = 0
    /// Sorted runs of rows let go of when the buffer was full, merged in at the next flush.
    private var spill: IndexRowSpill?

    init(db: SQLiteTransaction, limit: Int) {
        self.db = db
        self.limit = limit
    }

    /// Holds the `field_value` row of `recordID`'s element `key` of field `fieldID`.
    func appendValue(zoneRowID: Int64, fieldID: Int64, key: IndexKey, recordID: Int64) throws {
        let field = FieldKey(zoneRowID: zoneRowID, fieldID: fieldID)
        switch key {
        case .integer(let number): fields[slot(of: field, folds: false)].integers.append((number, recordID))
        case .real(let number): fields[slot(of: field, folds: false)].reals.append((number, recordID))
        case .text(let text, let folds): fields[slot(of: field, folds: folds)].texts.append(text, recordID: recordID)
        }
        try count()
    }

    /// Where `field`'s rows are held; a field first held gets a slot (folding its strings as
    /// `folds` says).
    private func slot(of field: FieldKey, folds: Bool) -> Int {
        let recent = Int(UInt64(bitPattern: field.fieldID) % UInt64(recentSlots.count))
        if recentSlots[recent].key == field { return recentSlots[recent].slot }
        let slot: Int
        if let known = slots[field] {
            slot = known
        } else {
            slot = fields.count
            fields.append(HeldFieldRows(folds: folds))
            fieldKeys.append(field)
            slots[field] = slot
        }
        recentSlots[recent] = (field, slot)
        return slot
    }

    /// Holds the `reference_edge` row saying `sourceID` points at `target` with DELETE_SELF.
    func appendEdge(zoneRowID: Int64, target: String, sourceID: Int64) throws {
        edgeTargets.append(target, recordID: sourceID)
        edgeZones.append(zoneRowID)
        try count()
    }

    private func count() throws {
        held += 1
        if held >= limit { try spillHeld() }
    }

    /// Writes every held row, in key order, many rows per statement (``ChunkedInsert``): the
    /// rows still held and those let go of earlier (``IndexRowSpill``) in one merge per field.
    func flush() throws {
        guard held > 0 || spill != nil else { return }
        let head = "INSERT OR IGNORE INTO field_value (zone_id, field_id, value, record_id, folded)"
        let numbers = try ChunkedInsert(head, shared: 2, perRow: 2, tail: ", NULL", in: db.sqlite)
        let strings = try ChunkedInsert(head, shared: 2, perRow: 3, in: db.sqlite)
        func bindShared(_ field: FieldKey) {
            for insert in [numbers, strings] {
                insert.bindShared { $0.bind(1, field.zoneRowID); $0.bind(2, field.fieldID) }
            }
        }
        let chunker: IndexRowChunker
        if let spill {
            // The rest joins the runs, so each field is merged into the table once.
            try spillHeld()
            chunker = IndexRowChunker(merging: spill)
            self.spill = nil
        } else {
            chunker = IndexRowChunker(sorting: sortHeldFields())
        }
        try chunker.insertAll(numbers: numbers, strings: strings, startingField: bindShared)
        try insertEdges()
        held = 0
    }

    /// Lets go of the held rows when the buffer is full: the index rows into sorted runs of the
    /// spill file, the reference edges (few) into their table.
    private func spillHeld() throws {
        let spill = try self.spill ?? IndexRowSpill(in: storeFolder)
        self.spill = spill
        try forEachSortedField { field, rows in try spill.write(rows, of: field) }
        try insertEdges()
        held = 0
    }

    /// The folder of the store's file, where a spill's file goes; nil for a store in memory.
    private var storeFolder: String? {
        guard let connection = db.sqlite.sqliteConnection, let name = sqlite3_db_filename(connection, "main") else { return nil }
        let path = String(cString: name)
        return path.isEmpty ? nil : URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// Hands each field's held rows, sorted, to `body` in key order. A helper thread sorts the
    /// fields one after another while `body` takes them; each is emptied after (its memory kept).
    private func forEachSortedField(_ body: (FieldKey, HeldFieldRows) throws -> Void) throws {
        let sorter = sortHeldFields()
        defer { sorter.cancel() }
        for (index, field) in sorter.keys.enumerated() {
            var rows = sorter.take(index)
            try body(field, rows)
            // Emptied but kept (see HeldFieldRows.removeAll).
            rows.removeAll()
            if let slot = slots[field] { fields[slot] = rows }
        }
    }

    /// Moves every field that holds rows out, in key order (moved, not copied, so each field's
    /// arrays are sorted in place), to a sorter that starts at once; each slot is left empty.
    private func sortHeldFields() -> HeldRowsSorter {
        let order = fields.indices.filter { fields[$0].count > 0 }.sorted { fieldKeys[$0] < fieldKeys[$1] }
        return HeldRowsSorter(order.map { slot in
            var rows = HeldFieldRows(folds: fields[slot].folds)
            swap(&rows, &fields[slot])
            return (fieldKeys[slot], rows)
        })
    }

    private func insertEdges() throws {
        guard !edgeTargets.isEmpty else { return }
        // By (target, source), then by zone: Swift's sort is stable, so that is key order.
        var order = edgeTargets.keyOrder()
        order.sort { edgeZones[$0] < edgeZones[$1] }
        let insert = try ChunkedInsert("INSERT OR IGNORE INTO reference_edge (zone_id, target, source_id)", shared: 0, perRow: 3, in: db.sqlite)
        try insert.insert(count: order.count) { index, statement, first in
            let row = order[index]
            statement.bind(first, edgeZones[row])
            edgeTargets.withUTF8(at: row) { statement.bind(first + 1, utf8: $0) }
            statement.bind(first + 2, edgeTargets.recordID(at: row))
        }
        edgeTargets.removeAll()
        edgeZones.removeAll(keepingCapacity: true)
    }
}
