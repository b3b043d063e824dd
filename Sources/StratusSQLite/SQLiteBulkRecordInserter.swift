import StratusCloud
import StratusEngine
import StratusModel

/// The import's record inserts: many rows to a statement (see
/// ``RecordRowWriter/insert(_:firstID:through:)``), the statement made once per import.
struct SQLiteBulkRecordInserter: BulkRecordInserting {
    let writer: RecordRowWriter
    let statement: ChunkedInsert

    var rowsPerChunk: Int { ChunkedInsert.rowsPerChunk }

    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64) throws -> Set<Int> {
        try writer.insert(rows, firstID: firstID, through: statement)
    }
}
