import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// A record's row and its index rows, written together: the one way saving, importing, deleting
/// (cascades included) and the schema rebuild write a record, so its row and its `field_value`, `record_text` and
/// `reference_edge` rows cannot drift apart (and another backend writes both in one place).
///
/// It adds no statement of its own: inserting is the row's insert and then its index rows;
/// replacing removes the old index rows, updates the row, and adds the new ones (only those of
/// changed fields when the type's indexes are as before), as the callers did by hand. New index
/// rows go through `buffer` when given (held back and written sorted, see ``IndexRowBuffer``);
/// removals are always immediate, so a caller holding rows of a record it replaces flushes them
/// first.
struct RecordWriter {
    let db: SQLiteTransaction

    /// Inserts a new record's row and then its index rows (under `type`); nil, with nothing
    /// written, when the zone already holds a record of that name. `clearingTombstone`: see
    /// ``RecordRowWriter/insert(_:clearingTombstone:)``. `tokens`: full-text tokens already
    /// computed (see ``RecordIndexer/add(recordID:fields:tokens:)``).
    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens? = nil, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)? = nil, clearingTombstone: Bool = true) throws -> Int64? {
        guard let id = try RecordRowWriter(db: db).insert(row, clearingTombstone: clearingTombstone) else { return nil }
        try RecordIndexer(db: db, zoneRowID: row.zoneRowID, type: type, buffer: buffer as? IndexRowBuffer).add(recordID: id, fields: fields, tokens: tokens)
        return id
    }

    /// Replaces `existing` in its zone: removes the index rows its fields had under `oldType`,
    /// updates the row as `update` says, and adds the rows `fields` have under `type`. Under one
    /// type indexed alike, only the fields whose values changed move
    /// (``RecordIndexer/update(recordID:from:to:tokens:)``), and none when the update writes the
    /// very bytes the row holds (a store refilled from its own export, a record saved again
    /// unchanged): then the old fields are neither decoded nor compared one by one, a fifth of
    /// re-importing 100,000 records. `oldFields`: `existing`'s fields when the caller has them
    /// decoded already.
    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]? = nil, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens? = nil, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)? = nil) throws {
        let (id, zoneRowID) = (existing.id, existing.zoneRowID)
        let storedAlike = update.blob.map { $0 == existing.fieldsBlob } ?? true
        let indexedAlike = oldType.id == type.id && oldType.fields == type.fields
        if indexedAlike {
            if !storedAlike {
                try RecordIndexer(db: db, zoneRowID: zoneRowID, type: type, buffer: buffer as? IndexRowBuffer)
                    .update(recordID: id, from: try oldFields ?? existing.fields(), to: fields, tokens: tokens)
            }
        } else {
            // The same bytes decode to fields with the same index rows.
            try RecordIndexer(db: db, zoneRowID: zoneRowID, type: oldType)
                .remove(recordID: id, fields: storedAlike ? fields : try oldFields ?? existing.fields())
        }
        let rows = RecordRowWriter(db: db)
        switch update {
        case .all(let row):
            try rows.update(id: id, with: row)
        case .fields(let blob, let changeTag, let sequence, let modifiedAt, let modifiedBy, let changedKeys):
            try rows.rewriteFields(id: id, blob: blob, changeTag: changeTag, sequence: sequence, modifiedAt: modifiedAt, modifiedBy: modifiedBy,
                                   changedKeys: changedKeys)
        case .unchanged:
            break
        }
        if !indexedAlike {
            try RecordIndexer(db: db, zoneRowID: zoneRowID, type: type, buffer: buffer as? IndexRowBuffer).add(recordID: id, fields: fields, tokens: tokens)
        }
    }

    /// Deletes one record: its index rows (as `catalog`, the schema it was written under, says),
    /// its row, and leaves a tombstone at change sequence `sequence`. ``DeleteCascade`` finds
    /// the records a delete takes with it; each goes through here.
    func delete(_ victim: StoredRecord, catalog: SchemaCatalog, sequence: Int64) throws {
        guard let typeName = catalog.typeNames[victim.typeID], let type = catalog.type(named: typeName) else { return }
        try RecordIndexer(db: db, zoneRowID: victim.zoneRowID, type: type).remove(recordID: victim.id, fields: try victim.fields())
        try db.sqlite.cachedStatement(sql: "DELETE FROM record WHERE id = ?").execute(arguments: [victim.id])
        try db.sqlite.cachedStatement(sql: "INSERT OR REPLACE INTO tombstone (zone_id, name, type_id, seq) VALUES (?, ?, ?, ?)")
            .execute(arguments: [victim.zoneRowID, victim.name, victim.typeID, sequence])
    }
}
