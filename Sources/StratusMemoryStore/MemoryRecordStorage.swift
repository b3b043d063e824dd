import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Records in a memory store's tables. There are no index rows to keep: queries index the
/// records as they start (``MemoryQueryStorage``) and a record's DELETE_SELF references are read
/// from its fields, so writing a record is writing its row.
struct MemoryRecordStorage: RecordStorage {
    let db: MemoryTransaction

    // MARK: Reading

    func nameLookup() throws -> any RecordNameLookup { MemoryRecordNameLookup(db: db) }

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        db.tables.recordNames[zoneRowID]?[name].flatMap { db.tables.records[$0]?.stored }
    }

    func find(id: Int64) throws -> StoredRecord? { db.tables.records[id]?.stored }

    func count(zoneRowID: Int64, typeID: Int64?) throws -> Int {
        guard let typeID else { return db.tables.recordNames[zoneRowID]?.count ?? 0 }
        return records(zoneRowID: zoneRowID).count { $0.row.typeID == typeID }
    }

    func count(ofType typeID: Int64) throws -> Int { db.tables.records.values.count { $0.row.typeID == typeID } }

    func ids(ofType typeID: Int64) throws -> [Int64] {
        db.tables.records.values.filter { $0.row.typeID == typeID }.sorted { ($0.row.zoneRowID, $0.id) < ($1.row.zoneRowID, $1.id) }.map(\.id)
    }

    func maxRowID() throws -> Int64 { db.tables.records.keys.max() ?? 0 }

    func forEach(zoneRowID: Int64, typeID: Int64?, _ body: (StoredRecord) throws -> Void) throws {
        let chosen = records(zoneRowID: zoneRowID).filter { typeID == nil || $0.row.typeID == typeID }
        for record in chosen.sorted(by: { ($0.row.sequence, $0.id) < ($1.row.sequence, $1.id) }) { try body(record.stored) }
    }

    func parentName(zoneRowID: Int64, name: String) throws -> String? {
        db.tables.recordNames[zoneRowID]?[name].flatMap { db.tables.records[$0]?.row.parent }
    }

    func countsByType(zoneRowID: Int64) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in records(zoneRowID: zoneRowID) {
            guard let name = db.tables.types[record.row.typeID]?.name else { continue }
            counts[name, default: 0] += 1
        }
        return counts
    }

    func modificationHistogram(zoneRowID: Int64, buckets: Int) throws -> [Int] {
        let times = records(zoneRowID: zoneRowID).map(\.row.modifiedAt)
        guard let low = times.min(), let high = times.max() else { return [] }
        var counts = [Int](repeating: 0, count: buckets)
        let span = max(1, high - low + 1)
        for time in times { counts[min(max(0, Int((time - low) * Int64(buckets) / span)), buckets - 1)] += 1 }
        return counts
    }

    func referencingSources(zoneRowID: Int64, target: String) throws -> [Int64] {
        try records(zoneRowID: zoneRowID).filter { record in
            try record.stored.fields().deleteSelfTargets.contains(target)
        }.map(\.id).sorted()
    }

    func queryStorage(zoneRowID: Int64, type: SchemaCatalog.TypeEntry) throws -> any QueryStorage {
        let build = { try MemoryQueryStorage(zoneRecords: records(zoneRowID: zoneRowID).map(\.stored), type: type) }
        guard !db.changedRecords else { return try build() }
        return try db.queries.storage(commit: db.tables.commit, zoneRowID: zoneRowID, type: type, build)
    }

    // MARK: Writing

    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)?, clearingTombstone: Bool) throws -> Int64? {
        if clearingTombstone { try clearTombstone(of: row) }
        guard db.tables.recordNames[row.zoneRowID]?[row.name] == nil else { return nil }
        let id = db.tables.lastRecordID + 1
        put(row, id: id)
        return id
    }

    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]?, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)?) throws {
        guard var record = db.tables.records[existing.id] else { return }
        db.changedRecords = true
        switch update {
        case .all(let row):
            record.row.blob = row.blob
            record.row.changeTag = row.changeTag
            record.row.sequence = row.sequence
            record.row.createdAt = row.createdAt
            record.row.createdBy = row.createdBy
            record.row.modifiedAt = row.modifiedAt
            record.row.modifiedBy = row.modifiedBy
            record.row.parent = row.parent
            record.row.changedKeys = row.changedKeys
        case .fields(let blob, let changeTag, let sequence, let modifiedAt, let modifiedBy, let changedKeys):
            record.row.blob = blob
            record.row.changeTag = changeTag
            record.row.sequence = sequence
            record.row.modifiedAt = modifiedAt
            record.row.modifiedBy = modifiedBy
            record.row.changedKeys = changedKeys
        case .unchanged:
            return
        }
        db.tables.records[existing.id] = record
    }

    func delete(_ victim: StoredRecord, catalog: SchemaCatalog, sequence: Int64) throws {
        guard catalog.typeNames[victim.typeID] != nil else { return }
        db.changedRecords = true
        db.tables.records[victim.id] = nil
        db.tables.recordNames[victim.zoneRowID]?[victim.name] = nil
        db.tables.tombstones[victim.zoneRowID, default: [:]][victim.name] = ChangeFeedDeletion(sequence: sequence, name: victim.name, typeID: victim.typeID)
    }

    func clearTombstone(of row: RecordRow) throws {
        db.tables.tombstones[row.zoneRowID]?[row.name] = nil
    }

    func touch(zoneRowID: Int64, name: String, changeTag: String, sequence: Int64, modifiedAt: Int64) throws {
        guard let id = db.tables.recordNames[zoneRowID]?[name] else { return }
        db.changedRecords = true
        db.tables.records[id]?.row.changeTag = changeTag
        db.tables.records[id]?.row.sequence = sequence
        db.tables.records[id]?.row.modifiedAt = modifiedAt
        db.tables.records[id]?.row.changedKeys = ""
    }

    // MARK: Bulk writes

    func makeIndexBuffer(limit: Int) -> any IndexRowBuffering { MemoryIndexRows() }

    func makeBulkInserter() throws -> any BulkRecordInserting { MemoryBulkInserter(db: db) }

    func indexer(zoneRowID: Int64, type: SchemaCatalog.TypeEntry, buffer: any IndexRowBuffering) -> any RecordIndexing { MemoryIndexRows() }

    // MARK: Tables

    /// Writes a record's row under `id`.
    func put(_ row: RecordRow, id: Int64) {
        db.changedRecords = true
        db.tables.records[id] = MemoryTables.Record(id: id, row: row)
        db.tables.recordNames[row.zoneRowID, default: [:]][row.name] = id
        db.tables.lastRecordID = max(db.tables.lastRecordID, id)
    }

    private func records(zoneRowID: Int64) -> [MemoryTables.Record] {
        (db.tables.recordNames[zoneRowID]?.values).map { $0.compactMap { db.tables.records[$0] } } ?? []
    }
}
