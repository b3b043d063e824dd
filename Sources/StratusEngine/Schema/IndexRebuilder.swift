import Foundation
import StratusModel
import StratusCloud

/// Rewrites the index rows of every record of a type after a schema import changed the type's
/// indexes, in the import's transaction.
///
/// The SQLite indexer recomputes a record's old rows from the schema it is given, so a record's
/// rows are always removed under the schema that wrote them (`old`) and written again under
/// the new one: `field_value` and `record_text` rows all follow the new QUERYABLE /
/// SORTABLE / SEARCHABLE options. A forced import that drops fields strips them from the
/// records too (a change with a new tag and sequence), and one that drops a type deletes its
/// records (tombstones included), so sync clients see what was lost.
struct IndexRebuilder {
    let store: Store
    let db: StoreTransaction
    let now: Int64
    private var sequences: [Int64: Int64] = [:]
    private(set) var rebuiltRecords = 0
    private(set) var strippedRecords = 0
    private(set) var deletedRecords = 0

    init(store: Store, db: StoreTransaction) {
        self.store = store
        self.db = db
        now = FieldValue.milliseconds(Date())
    }

    /// Re-indexes every record of a type under `new`, removing `dropping` fields from records
    /// that hold them.
    mutating func rebuild(from old: SchemaCatalog.TypeEntry, to new: SchemaCatalog.TypeEntry, dropping: Set<String>) throws {
        for id in try db.records.ids(ofType: old.id) {
            guard let stored = try db.records.find(id: id) else { continue }
            let oldFields = try stored.fields()
            var fields = oldFields
            let removedKeys = dropping.filter { fields[$0] != nil }.sorted()
            for name in dropping { fields[name] = nil }
            var update = RecordRowUpdate.unchanged
            if fields.count != oldFields.count {
                update = .fields(blob: FieldCoder.encode(fields), changeTag: ChangeTag.make(), sequence: try nextSequence(zoneRowID: stored.zoneRowID),
                                 modifiedAt: now, modifiedBy: store.owner, changedKeys: ChangedKeys.encode(removedKeys))
                strippedRecords += 1
            }
            try db.records.replace(stored, oldFields: oldFields, oldType: old, update: update, fields: fields, type: new)
            rebuiltRecords += 1
        }
    }

    /// Deletes every record of a type the import removes, leaving tombstones, and, as a delete
    /// does, every record that points at a deleted one with DELETE_SELF (recursively).
    /// `catalog` is the schema the records were written under.
    mutating func deleteRecords(of old: SchemaCatalog.TypeEntry, catalog: SchemaCatalog) throws {
        var cascade = DeleteCascade(db: db)
        for id in try db.records.ids(ofType: old.id) {
            guard let root = try db.records.find(id: id) else { continue }
            try cascade.run(from: root) { victim, _ in
                try db.records.delete(victim, catalog: catalog, sequence: try nextSequence(zoneRowID: victim.zoneRowID))
                deletedRecords += 1
            }
        }
    }

    private mutating func nextSequence(zoneRowID: Int64) throws -> Int64 {
        if sequences[zoneRowID] == nil {
            sequences[zoneRowID] = try db.zones.find(id: zoneRowID)?.changeSequence ?? 0
        }
        sequences[zoneRowID]! += 1
        return sequences[zoneRowID]!
    }

    /// Moves the change sequence of every zone whose records changed, and its database's.
    func finish() throws {
        for (zoneRowID, sequence) in sequences.sorted(by: { $0.key < $1.key }) {
            guard let zone = try db.zones.find(id: zoneRowID) else { continue }
            let databaseSequence = try store.database(zone.scope).nextDatabaseSequence(db)
            try db.zones.setSequences(zoneRowID: zoneRowID, change: sequence, database: databaseSequence)
        }
    }
}
