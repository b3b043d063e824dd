import Foundation
import GRDB
import StratusModel

/// Holds back the `field_value` and `reference_edge` rows of a bulk write and inserts them
/// sorted by primary key.
///
/// Both tables are clustered on their key (`WITHOUT ROWID`), so rows written in record order
/// land all over their B-trees: at a million records that is several random page writes per
/// row. Sorted, the same rows are appended page after page (into an empty tree) or at least
/// visit each page once. Rows are kept per field, as plain (value, record) pairs, so sorting
/// compares numbers or strings, never tagged values. An import writes through one buffer; it
/// flushes when it holds `limit` rows (keeping memory bounded) and when the import ends, in
/// the import's transaction.
final class IndexRowBuffer {
    /// The rows of one field of one zone: the leading columns of `field_value`'s key.
    private struct FieldKey: Hashable, Comparable {
        var zoneRowID: Int64
        var fieldID: Int64

        static func < (a: FieldKey, b: FieldKey) -> Bool { (a.zoneRowID, a.fieldID) < (b.zoneRowID, b.fieldID) }
    }

    private struct TextRows {
        /// Strings are case-folded for `folded`; reference names are not.
        var folds: Bool
        var rows: [(String, Int64)] = []
    }

    private let db: StoreTransaction
    private let limit: Int
    private var integers: [FieldKey: [(Int64, Int64)]] = [:]
    private var reals: [FieldKey: [(Double, Int64)]] = [:]
    private var texts: [FieldKey: TextRows] = [:]
    private var edges: [(zoneRowID: Int64, target: String, sourceID: Int64)] = []
    private var held = 0

    init(db: StoreTransaction, limit: Int) {
        self.db = db
        self.limit = limit
    }

    /// Holds the `field_value` row of `recordID`'s element `key` of field `fieldID`.
    func appendValue(zoneRowID: Int64, fieldID: Int64, key: IndexKey, recordID: Int64) throws {
        let field = FieldKey(zoneRowID: zoneRowID, fieldID: fieldID)
        switch key {
        case .integer(let number): integers[field, default: []].append((number, recordID))
        case .real(let number): reals[field, default: []].append((number, recordID))
        case .text(let text, let folds): texts[field, default: TextRows(folds: folds)].rows.append((text, recordID))
        }
        try count()
    }

    /// Holds the `reference_edge` row saying `sourceID` points at `target` with DELETE_SELF.
    func appendEdge(zoneRowID: Int64, target: String, sourceID: Int64) throws {
        edges.append((zoneRowID, target, sourceID))
        try count()
    }

    private func count() throws {
        held += 1
        if held >= limit { try flush() }
    }

    /// Writes every held row, in key order, many rows per statement (``ChunkedInsert``).
    func flush() throws {
        guard held > 0 else { return }
        let head = "INSERT OR IGNORE INTO field_value (zone_id, field_id, value, record_id, folded)"
        let numbers = try ChunkedInsert(head, shared: 2, perRow: 2, tail: ", NULL", in: db.sqlite)
        let strings = try ChunkedInsert(head, shared: 2, perRow: 3, in: db.sqlite)
        for field in Set(integers.keys).union(reals.keys).union(texts.keys).sorted() {
            for insert in [numbers, strings] {
                insert.bindShared { $0.bind(1, field.zoneRowID); $0.bind(2, field.fieldID) }
            }
            // SQLite orders numbers before text; a field holds one type, so this is key order.
            // Sorted in place: a sorted copy would allocate as much again.
            integers[field]?.sort(by: IndexRowBuffer.keyOrder)
            reals[field]?.sort(by: IndexRowBuffer.keyOrder)
            try insertNumbers(integers[field], with: numbers) { $0.bind($1, $2) }
            try insertNumbers(reals[field], with: numbers) { $0.bind($1, $2) }
            if let text = texts[field] {
                let rows = text.rows
                let order = IndexRowBuffer.byteOrder(rows.map(\.0)) { rows[$0].1 < rows[$1].1 }
                try strings.insert(count: order.count) { index, statement, first in
                    let (value, recordID) = rows[order[index]]
                    statement.bind(first, value)
                    statement.bind(first + 1, recordID)
                    statement.bind(first + 2, text.folds ? CaseFolding.key(value) : nil)
                }
            }
        }
        // Emptied but kept: a transaction that fills the buffer more than once reuses the
        // memory instead of growing (and page-faulting) every array again.
        for field in integers.keys { integers[field]!.removeAll(keepingCapacity: true) }
        for field in reals.keys { reals[field]!.removeAll(keepingCapacity: true) }
        for field in texts.keys { texts[field]!.rows.removeAll(keepingCapacity: true) }
        if !edges.isEmpty {
            // By (target, source), then by zone: Swift's sort is stable, so that is key order.
            let order = IndexRowBuffer.byteOrder(edges.map(\.target)) { edges[$0].sourceID < edges[$1].sourceID }
            edges = order.map { edges[$0] }
            edges.sort { $0.zoneRowID < $1.zoneRowID }
            let insert = try ChunkedInsert("INSERT OR IGNORE INTO reference_edge (zone_id, target, source_id)", shared: 0, perRow: 3, in: db.sqlite)
            try insert.insert(count: edges.count) { index, statement, first in
                let row = edges[index]
                statement.bind(first, row.zoneRowID)
                statement.bind(first + 1, row.target)
                statement.bind(first + 2, row.sourceID)
            }
            edges.removeAll(keepingCapacity: true)
        }
        held = 0
    }

    /// (value, record) order.
    private static func keyOrder<Number: Comparable>(_ a: (Number, Int64), _ b: (Number, Int64)) -> Bool {
        a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
    }

    /// Writes one field's numeric rows, sorted; the statement holds the zone and field.
    private func insertNumbers<Number>(_ rows: [(Number, Int64)]?, with insert: ChunkedInsert,
                                       bindValue: (DirectStatement, Int32, Number) -> Void) throws {
        guard let rows else { return }
        try insert.insert(count: rows.count) { index, statement, first in
            bindValue(statement, first, rows[index].0)
            statement.bind(first + 1, rows[index].1)
        }
    }

    /// The indices of `texts` in SQLite's BINARY order (by UTF-8 bytes), `tieBreak` deciding
    /// between equal texts. The first eight bytes are compared as one integer, which settles
    /// most comparisons without touching the strings (sorting was a fifth of a flush before).
    static func byteOrder(_ texts: [String], tieBreak: (Int, Int) -> Bool) -> [Int] {
        var keys = texts.indices.map { (prefix: bytePrefix(texts[$0]), index: $0) }
        keys.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let order = compareBytes(texts[a.index], texts[b.index])
            return order != 0 ? order < 0 : tieBreak(a.index, b.index)
        }
        return keys.map(\.index)
    }

    /// The first eight UTF-8 bytes of `text`, big-endian, zero-padded: ordered as the bytes are.
    static func bytePrefix(_ text: String) -> UInt64 {
        var value: UInt64 = 0
        var count = 0
        for byte in text.utf8.prefix(8) {
            value = value << 8 | UInt64(byte)
            count += 1
        }
        return count == 8 ? value : value << (8 * (8 - count))
    }

    /// Negative, zero or positive as `a`'s UTF-8 bytes sort before, with or after `b`'s.
    static func compareBytes(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let order = memcmp(p, q, common)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
    }
}
