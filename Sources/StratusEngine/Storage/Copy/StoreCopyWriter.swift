import Foundation
import StratusCloud
import StratusModel

/// The writing side of ``Store/copy(to:progress:)``, inside the destination's one transaction:
/// each table's rows in batches, and the records through the record storage's bulk inserter
/// under their own row ids, each then indexed by the destination's indexer under the copied
/// schema (index rows are the backend's own, so they are rebuilt rather than copied).
struct StoreCopyWriter {
    let tables: any TableCopyStorage
    let db: StoreTransaction
    let totals: [CopiedTable: Int]
    let progress: (StoreCopyProgress) -> Void

    /// Rows written to one statement batch (and between progress reports).
    static let batchSize = 500

    func copy(_ table: CopiedTable, from source: any TableCopyStorage) throws {
        if table == .record { return try copyRecords(from: source) }
        let columns = table.columns
        var batch: [[CopiedValue]] = []
        var copied = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            try tables.insert(batch, into: table)
            copied += batch.count
            batch.removeAll(keepingCapacity: true)
            progress(StoreCopyProgress(table: table, copied: copied, total: totals[table] ?? copied))
        }
        try source.forEachRow(of: table) { row in
            batch.append(zip(row, columns).map { $0.conformed(to: $1.kind) })
            if batch.count >= Self.batchSize { try flush() }
        }
        try flush()
    }

    /// Records go in runs of consecutive row ids (the bulk inserter numbers a run from its
    /// first id), then each is indexed.
    private func copyRecords(from source: any TableCopyStorage) throws {
        let catalog = try SchemaCatalog.load(db, version: 0)
        let types = Dictionary(catalog.types.values.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let inserter = try db.records.makeBulkInserter()
        let buffer = db.records.makeIndexBuffer(limit: RecordImporter.indexRowLimit)
        var run: [RecordRow] = []
        var firstID: Int64 = 0
        var copied = 0
        var indexer: (zoneRowID: Int64, typeID: Int64, indexing: any RecordIndexing)?
        let total = totals[.record] ?? 0

        func flush() throws {
            guard !run.isEmpty else { return }
            let skipped = try run.withUnsafeBufferPointer { try inserter.insert($0, firstID: firstID) }
            guard skipped.isEmpty else {
                throw CloudKitError(.internalError, "Record '\(run[skipped.min()!].name)' appears twice in its zone in the store being copied.")
            }
            for (offset, row) in run.enumerated() {
                guard let type = types[row.typeID] else {
                    throw CloudKitError(.internalError, "Record '\(row.name)' has a record type (id \(row.typeID)) the store's schema does not hold.")
                }
                if indexer?.zoneRowID != row.zoneRowID || indexer?.typeID != row.typeID {
                    indexer = (row.zoneRowID, row.typeID, db.records.indexer(zoneRowID: row.zoneRowID, type: type, buffer: buffer))
                }
                let stored = StoredRecord(id: firstID + Int64(offset), zoneRowID: row.zoneRowID, name: row.name, typeID: row.typeID,
                                          fieldsBlob: row.blob, changeTag: row.changeTag, sequence: row.sequence, createdAt: row.createdAt,
                                          createdBy: row.createdBy, modifiedAt: row.modifiedAt, modifiedBy: row.modifiedBy, parent: row.parent)
                try indexer!.indexing.add(recordID: stored.id, fields: try stored.fields(), tokens: nil, text: nil, declaredFields: nil)
            }
            copied += run.count
            run.removeAll(keepingCapacity: true)
            progress(StoreCopyProgress(table: .record, copied: copied, total: total))
        }

        try source.forEachRow(of: .record) { cells in
            let cells = CopiedRecordCells(cells)
            let id = try cells.integer(0)
            if !run.isEmpty && (id != firstID + Int64(run.count) || run.count >= inserter.rowsPerChunk) { try flush() }
            if run.isEmpty { firstID = id }
            run.append(try cells.row())
        }
        try flush()
        try buffer.flush()
    }

    func finish() throws { try tables.finishCopy() }
}

/// A copied record row's cells read as a ``RecordRow``.
private struct CopiedRecordCells {
    let cells: [CopiedValue]

    init(_ cells: [CopiedValue]) { self.cells = cells }

    func integer(_ index: Int) throws -> Int64 {
        guard let value = cells[index].conformed(to: .integer).integer else { throw damaged }
        return value
    }

    func text(_ index: Int) throws -> String {
        guard let value = cells[index].text else { throw damaged }
        return value
    }

    func optionalText(_ index: Int) -> String? { cells[index].text }

    func row() throws -> RecordRow {
        guard let blob = cells[4].bytes else { throw damaged }
        return RecordRow(zoneRowID: try integer(1), name: try text(2), typeID: try integer(3), blob: blob, changeTag: try text(5),
                         sequence: try integer(6), createdAt: try integer(7), createdBy: try text(8), modifiedAt: try integer(9),
                         modifiedBy: try text(10), parent: optionalText(11), changedKeys: optionalText(12))
    }

    private var damaged: CloudKitError {
        CloudKitError(.internalError, "A record row of the store being copied lacks a value it must have; the store may be damaged.")
    }
}
