import Foundation
import StratusModel

/// Records to restore and the asset content they embed, as ``RecordLinesReader`` reads them
/// and ``CloudDatabase/importRecords(batches:progress:)`` writes them.
public struct ImportBatch: Sendable {
    public private(set) var records: [Record]
    /// Asset files the records' ASSET fields may point at, stored before the records.
    public private(set) var assets: [Data]
    /// What ``prepare()`` worked out, one per record.
    private(set) var prepared: [PreparedRecord]?

    public init(records: [Record], assets: [Data] = []) {
        self.records = records
        self.assets = assets
    }

    /// Does the per-record work that needs no database (normalizing values, encoding the
    /// fields, tokenizing text) so a reading thread can do it while the writer writes the
    /// previous batch. Optional: the import does whatever was not prepared itself.
    public mutating func prepare() {
        for index in records.indices { records[index].normalizeFields() }
        prepared = records.map { PreparedRecord(normalizedFields: $0.fields) }
    }
}

/// What the write path computes from a record's (normalized) fields before it touches the
/// database: the stored blob and the full-text tokens.
struct PreparedRecord: Sendable {
    var blob: Data
    /// The full-text tokens of each string field (all elements of a string list, in order).
    var tokens: [String: [String]]

    init(normalizedFields fields: [String: FieldValue]) {
        blob = FieldCoder.encode(fields)
        var tokens: [String: [String]] = [:]
        for (name, value) in fields where value.type.base == .string {
            var all: [String] = []
            for case .string(let text) in value.elements { all += TextTokenizer.tokens(text) }
            tokens[name] = all
        }
        self.tokens = tokens
    }
}
