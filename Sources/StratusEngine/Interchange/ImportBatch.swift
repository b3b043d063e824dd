import Foundation
import StratusModel

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
    public mutating func prepare() {
        for index in records.indices { records[index].normalizeFields() }
        prepared = records.map { record in
            var prepared = PreparedRecord(normalizedFields: record.fields)
            prepared.passesSchemaFreeChecks = RecordValidator.passesSchemaFreeChecks(
                recordName: record.recordName, recordType: record.recordType, fields: record.fields)
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

    init(normalizedFields fields: [String: FieldValue]) {
        blob = FieldCoder.encode(fields)
        tokens = FieldTokens(fields)
    }
}
