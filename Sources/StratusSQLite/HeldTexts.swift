import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The text rows of one held field (``HeldFieldRows``): each row's UTF-8 bytes copied into one
/// shared buffer, with its record.
///
/// Holding the records' own strings kept them alive past their batch, so they were freed by
/// whichever thread let the rows go, not by the reading thread that made them (and frees the
/// rest of its batch). Across threads glibc's allocator returns such memory to the maker's
/// arena piecemeal: after the first spill of a million-record import, allocating on the
/// reading thread cost twice as much, and the import 6 s more CPU. Copying the bytes costs
/// less than the retain and release it replaces.
struct HeldTexts: Sendable {
    private struct Row {
        var start: Int
        var count: Int
        var recordID: Int64
    }

    private var bytes: [UInt8] = []
    private var rows: [Row] = []

    init() {}

    var count: Int { rows.count }
    var isEmpty: Bool { rows.isEmpty }

    mutating func append(_ text: String, recordID: Int64) {
        var text = text
        text.withUTF8 { append(utf8: $0, recordID: recordID) }
    }

    mutating func append(utf8: UnsafeBufferPointer<UInt8>, recordID: Int64) {
        rows.append(Row(start: bytes.count, count: utf8.count, recordID: recordID))
        bytes.append(contentsOf: utf8)
    }

    func recordID(at index: Int) -> Int64 { rows[index].recordID }

    /// Row `index`'s text, as bytes where they lie.
    func withUTF8<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let row = rows[index]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[row.start..<row.start + row.count])) }
    }

    /// The rows' indices in `field_value`'s key order: by the texts' bytes (SQLite's BINARY
    /// order), then by record.
    func keyOrder() -> [Int] {
        bytes.withUnsafeBufferPointer { all in
            let slices = rows.map { UnsafeBufferPointer(rebasing: all[$0.start..<$0.start + $0.count]) }
            return UTF8Order.order(of: slices) { rows[$0].recordID < rows[$1].recordID }
        }
    }

    /// Empties the rows but keeps the memory, for the next fill of the buffer.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }
}
