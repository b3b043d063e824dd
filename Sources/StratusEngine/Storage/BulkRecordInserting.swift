import StratusCloud

/// Inserts new record rows many at a time, under row ids given by the caller: the import's
/// record writes, made once per import and handed one chunk after another.
package protocol BulkRecordInserting {
    /// How many rows one call takes best (the import sizes its chunks by it).
    var rowsPerChunk: Int { get }

    /// Inserts `rows` under the row ids `firstID`, `firstID + 1`, ...; a row whose name its zone
    /// holds already is skipped (its id stays unused). Returns the positions in `rows` skipped.
    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64) throws -> Set<Int>
}
