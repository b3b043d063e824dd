import Foundation
import StratusCloud
import StratusModel

/// Records and their index rows: reads by name, id, zone and type; the writes that keep a
/// record's row and its index rows together (saving, importing, deleting with a tombstone, the
/// schema's rebuilds); the import's bulk inserts; and each query's storage.
package protocol RecordStorage {
    // MARK: Reading

    /// A look-up of records by name prepared once.
    func nameLookup() throws -> any RecordNameLookup

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord?

    /// The record with this row id, whatever its zone and type.
    func find(id: Int64) throws -> StoredRecord?

    /// The records of a zone among `names`, by name: what a save of many records replaces,
    /// looked up together.
    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord]

    /// How many records a zone holds, of one type or (nil) of every type.
    func count(zoneRowID: Int64, typeID: Int64?) throws -> Int

    /// How many records of a type there are, in every zone.
    func count(ofType typeID: Int64) throws -> Int

    /// Row ids of every record of a type, in every zone, zone by zone in id order.
    func ids(ofType typeID: Int64) throws -> [Int64]

    /// The highest record row id so far (0 in an empty store).
    func maxRowID() throws -> Int64

    /// Hands `body` every record of a zone (of one type, or all), oldest change first.
    func forEach(zoneRowID: Int64, typeID: Int64?, _ body: (StoredRecord) throws -> Void) throws

    /// The parent reference of the record named `name` in the zone (nil: none, or no record).
    func parentName(zoneRowID: Int64, name: String) throws -> String?

    /// How many records of each type a zone holds, by record type name (types with none left
    /// out), counted in an index, never from the records.
    func countsByType(zoneRowID: Int64) throws -> [String: Int]

    /// How many of a zone's records were last changed in each of `buckets` equal slices from its
    /// first change to its last (empty for an empty zone).
    func modificationHistogram(zoneRowID: Int64, buckets: Int) throws -> [Int]

    /// The records of the zone that point at the record named `target` with a DELETE_SELF
    /// reference, by row id.
    func referencingSources(zoneRowID: Int64, target: String) throws -> [Int64]

    /// What running a query of `type` in one zone reads. Given the type's catalog entry (its
    /// fields and their indexes), a backend that indexes as a query starts knows what to index.
    func queryStorage(zoneRowID: Int64, type: SchemaCatalog.TypeEntry) throws -> any QueryStorage

    // MARK: Writing

    /// Inserts a new record's row and then its index rows (under `type`); nil, with nothing
    /// written, when the zone already holds a record of that name. `clearingTombstone`: a record
    /// made again under a deleted name is no longer deleted (a zone known to have no deletions
    /// skips that). `tokens`: full-text tokens already computed. New index rows go through
    /// `buffer` when given.
    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)?, clearingTombstone: Bool) throws -> Int64?

    /// Replaces `existing` in its zone: removes the index rows its fields had under `oldType`,
    /// updates the row as `update` says, and adds the rows `fields` have under `type` (only
    /// those of changed fields when both types index alike). `oldFields`: `existing`'s fields
    /// when the caller has them decoded already.
    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]?, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)?) throws

    /// Deletes one record: its index rows (as `catalog`, the schema it was written under, says),
    /// its row, and leaves a deletion at change sequence `sequence`.
    func delete(_ victim: StoredRecord, catalog: SchemaCatalog, sequence: Int64) throws

    /// A record made again under a deleted name is no longer deleted.
    func clearTombstone(of row: RecordRow) throws

    /// Gives a record a new change tag and change sequence with no field changed (a share
    /// record whose participants changed).
    func touch(zoneRowID: Int64, name: String, changeTag: String, sequence: Int64, modifiedAt: Int64) throws

    // MARK: Bulk writes

    /// A buffer for new records' index rows, holding at most `limit` in memory (more go to
    /// spill files beside the store).
    func makeIndexBuffer(limit: Int) -> any IndexRowBuffering

    /// The import's inserter of many record rows at a time.
    func makeBulkInserter() throws -> any BulkRecordInserting

    /// An indexer of new records of one zone and type, their rows held in `buffer`.
    func indexer(zoneRowID: Int64, type: SchemaCatalog.TypeEntry, buffer: any IndexRowBuffering) -> any RecordIndexing
}

extension RecordStorage {
    /// One name at a time, where a lookup costs no round trip.
    package func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        var found: [String: StoredRecord] = [:]
        for name in names { found[name] = try find(zoneRowID: zoneRowID, name: name) }
        return found
    }

    func count(zoneRowID: Int64) throws -> Int { try count(zoneRowID: zoneRowID, typeID: nil) }

    func forEach(zoneRowID: Int64, _ body: (StoredRecord) throws -> Void) throws { try forEach(zoneRowID: zoneRowID, typeID: nil, body) }

    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens? = nil, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)? = nil, clearingTombstone: Bool = true) throws -> Int64? {
        try insert(row, fields: fields, tokens: tokens, type: type, buffer: buffer, clearingTombstone: clearingTombstone)
    }

    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]? = nil, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens? = nil, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)? = nil) throws {
        try replace(existing, oldFields: oldFields, oldType: oldType, update: update, fields: fields, tokens: tokens, type: type, buffer: buffer)
    }
}
