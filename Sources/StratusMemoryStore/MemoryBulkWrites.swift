import StratusCloud
import StratusEngine
import StratusModel

/// A memory store keeps no index rows (queries index the records as they start), so a bulk
/// write's index buffer and indexers have nothing to hold.
final class MemoryIndexRows: IndexRowBuffering, RecordIndexing {
    func flush() throws {}

    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws {}
}

/// The import's inserts of many records at a time, one row after another.
struct MemoryBulkInserter: BulkRecordInserting {
    let db: MemoryTransaction

    var rowsPerChunk: Int { 256 }

    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64) throws -> Set<Int> {
        let records = MemoryRecordStorage(db: db)
        var skipped = Set<Int>()
        for (index, row) in rows.enumerated() {
            if db.tables.recordNames[row.zoneRowID]?[row.name] != nil {
                skipped.insert(index)
            } else {
                records.put(row, id: firstID + Int64(index))
            }
        }
        return skipped
    }
}

/// Records by name, in the transaction's tables.
struct MemoryRecordNameLookup: RecordNameLookup {
    let db: MemoryTransaction

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try MemoryRecordStorage(db: db).find(zoneRowID: zoneRowID, name: name)
    }
}
