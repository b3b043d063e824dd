import Foundation
import StratusModel
import StratusCloud

/// Records to restore and the asset content they embed, as ``RecordLinesReader`` reads them
/// and ``CloudDatabase/importRecords(batches:progress:)`` writes them.
public struct ImportBatch: Sendable {
    public private(set) var records: [Record]
    /// Asset files the records' ASSET fields may point at, stored before the records.
    public private(set) var assets: [Data]
    /// Records the input deletes (`"deleted": true` entries, delete operations). A line import
    /// deletes them after its records, in the one delete path; the last (empty) batch of a
    /// reader carries them.
    public internal(set) var deletions: [RecordID]
    /// What ``prepare()`` worked out, one per record.
    private(set) var prepared: [PreparedRecord]?

    public init(records: [Record], assets: [Data] = [], deletions: [RecordID] = []) {
        self.records = records
        self.assets = assets
        self.deletions = deletions
    }

    /// Does the per-record work that needs no database (normalizing values, encoding the
    /// fields, tokenizing text, the checks that need no schema) so a reading thread can do it
    /// while the writer writes the previous batch. Optional: the import does whatever was not
    /// prepared itself.
    public mutating func prepare() { prepare(scopes: nil) }

    /// `scopes`: the zones and types the writer has met so far, so each record of a known pair
    /// also gets its full-text row made here (``PreparedRecord/text``) and its fields checked
    /// against the type's (``PreparedRecord/declaredFields``).
    mutating func prepare(scopes: ImportScopes?) {
        for index in records.indices { records[index].normalizeFields() }
        var lastScope: (zone: ZoneID, type: String, ids: ImportScopes.IDs?)?
        prepared = records.map { record in
            var prepared = PreparedRecord(normalizedFields: record.fields)
            prepared.passesSchemaFreeChecks = RecordValidator.passesSchemaFreeChecks(
                recordName: record.recordName, recordType: record.recordType, fields: record.fields)
            if let scopes {
                // Records of an import share a zone and type, mostly: asked once per run of them.
                if lastScope?.zone != record.recordID.zoneID || lastScope?.type != record.recordType {
                    lastScope = (record.recordID.zoneID, record.recordType, scopes.ids(zone: record.recordID.zoneID, type: record.recordType))
                }
                if let ids = lastScope?.ids {
                    prepared.text = prepared.tokens.scopedText(prefix: ids.prefix)
                    prepared.scope = (ids.zoneRowID, ids.typeID, ids.generation)
                    prepared.declaredFields = SchemaCatalog.TypeEntry.declaredFields(of: record.fields, in: ids.fields)
                }
            }
            return prepared
        }
    }
}

/// What the write path computes from a record's (normalized) fields before it touches the
/// database: the stored blob, the full-text tokens, and whether the checks that need no schema
/// passed.
struct PreparedRecord: Sendable {
    var blob: Data
    /// The full-text tokens of each string field (all elements of a string list, in order).
    var tokens: FieldTokens
    /// The record passed ``RecordValidator/passesSchemaFreeChecks(recordName:recordType:fields:)``:
    /// the writer checks only the schema.
    var passesSchemaFreeChecks = false
    /// The zone and type row ids, and the schema's generation, this record was prepared
    /// against (``ImportBatch/prepare(scopes:)``); nil when the writer had not met them yet.
    var scope: (zoneRowID: Int64, typeID: Int64, generation: Int)?
    /// The full-text row, made ahead under `scope`; the writer uses it when the record's zone
    /// and type are those and the type makes every string field SEARCHABLE, and makes the row
    /// itself otherwise.
    var text: [UInt8] = []
    /// Under `scope`, when the type declares every field of the record with its value's type
    /// (``SchemaCatalog/TypeEntry/declares(_:)``, done here): each field's entry, in the order
    /// the record's fields iterate. The writer trusts them while the schema is still of that
    /// generation, and indexes the fields without looking their names up.
    var declaredFields: [SchemaCatalog.TypeEntry.Field]?

    init(normalizedFields fields: [String: FieldValue]) {
        blob = FieldCoder.encode(fields)
        tokens = FieldTokens(fields)
    }
}
