import Foundation
import StratusCloud
import StratusEngine
import StratusMemoryStore
import StratusModel

/// Records in a PostgreSQL store. A record's row carries what SQLite keeps in side tables:
/// its full-text tokens and the records it points at with DELETE_SELF, each a `text[]` under a
/// GIN index, written with the row so they never disagree with it. Its `field_value` rows
/// (``PostgresFieldIndex``) are written in the same transaction.
struct PostgresRecordStorage: RecordStorage {
    let db: PostgresTransaction

    static let columns = "id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent"

    // MARK: Reading

    func nameLookup() throws -> any RecordNameLookup { PostgresRecordNameLookup(db: db) }

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try db.link.rows("SELECT \(Self.columns) FROM record WHERE zone_id = $1 AND name = $2", [zoneRowID, name]).first.map(Self.record)
    }

    func find(id: Int64) throws -> StoredRecord? {
        try db.link.rows("SELECT \(Self.columns) FROM record WHERE id = $1", [id]).first.map(Self.record)
    }

    /// The records with these row ids, in one statement.
    func find(ids: [Int64]) throws -> [Int64: StoredRecord] {
        var found: [Int64: StoredRecord] = [:]
        for row in try db.link.rows("SELECT \(Self.columns) FROM record WHERE id = ANY($1)", [ids]) {
            let record = try Self.record(row)
            found[record.id] = record
        }
        return found
    }

    /// One statement for the lot: a lookup a record was a round trip a record.
    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        let rows = try db.link.rows("SELECT \(Self.columns) FROM record WHERE zone_id = $1 AND name = ANY($2)", [zoneRowID, names])
        var found: [String: StoredRecord] = [:]
        for row in rows {
            let record = try Self.record(row)
            found[record.name] = record
        }
        return found
    }

    func count(zoneRowID: Int64, typeID: Int64?) throws -> Int {
        guard let typeID else { return Int(try db.link.integer("SELECT count(*) FROM record WHERE zone_id = $1", [zoneRowID]) ?? 0) }
        return Int(try db.link.integer("SELECT count(*) FROM record WHERE zone_id = $1 AND type_id = $2", [zoneRowID, typeID]) ?? 0)
    }

    func count(ofType typeID: Int64) throws -> Int {
        Int(try db.link.integer("SELECT count(*) FROM record WHERE type_id = $1", [typeID]) ?? 0)
    }

    func ids(ofType typeID: Int64) throws -> [Int64] {
        try db.link.rows("SELECT id FROM record WHERE type_id = $1 ORDER BY zone_id, id", [typeID]).map { try $0.int(0) }
    }

    func maxRowID() throws -> Int64 { try db.link.integer("SELECT max(id) FROM record") ?? 0 }

    func forEach(zoneRowID: Int64, typeID: Int64?, _ body: (StoredRecord) throws -> Void) throws {
        let rows = if let typeID {
            try db.link.rows("SELECT \(Self.columns) FROM record WHERE zone_id = $1 AND type_id = $2 ORDER BY seq, id", [zoneRowID, typeID])
        } else {
            try db.link.rows("SELECT \(Self.columns) FROM record WHERE zone_id = $1 ORDER BY seq, id", [zoneRowID])
        }
        for row in rows { try body(try Self.record(row)) }
    }

    func parentName(zoneRowID: Int64, name: String) throws -> String? {
        try db.link.rows("SELECT parent FROM record WHERE zone_id = $1 AND name = $2", [zoneRowID, name]).first?.optionalString(0)
    }

    func countsByType(zoneRowID: Int64) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try db.link.rows("""
            SELECT t.name, count(*) FROM record r JOIN record_type t ON t.id = r.type_id WHERE r.zone_id = $1 GROUP BY t.name
            """, [zoneRowID]) {
            counts[try row.string(0)] = Int(try row.int(1))
        }
        return counts
    }

    func modificationHistogram(zoneRowID: Int64, buckets: Int) throws -> [Int] {
        guard let range = try db.link.rows("SELECT min(modified_at), max(modified_at) FROM record WHERE zone_id = $1", [zoneRowID]).first,
              let low = try range.optionalInt(0), let high = try range.optionalInt(1) else { return [] }
        var counts = [Int](repeating: 0, count: buckets)
        let span = max(1, high - low + 1)
        for row in try db.link.rows("SELECT (modified_at - $1) * $2 / $3, count(*) FROM record WHERE zone_id = $4 GROUP BY 1",
                                    [low, buckets, span, zoneRowID]) {
            counts[min(max(0, Int(try row.int(0))), buckets - 1)] += Int(try row.int(1))
        }
        return counts
    }

    func referencingSources(zoneRowID: Int64, target: String) throws -> [Int64] {
        try db.link.rows("SELECT id FROM record WHERE zone_id = $1 AND delete_targets @> ARRAY[$2::text] ORDER BY id", [zoneRowID, target])
            .map { try $0.int(0) }
    }

    /// PostgreSQL's own indexes; on a standby whose primary has not made them yet, the zone's
    /// records indexed as the query starts (exact answers, at the cost of reading the zone).
    func queryStorage(zoneRowID: Int64, type: SchemaCatalog.TypeEntry) throws -> any QueryStorage {
        guard db.hasFieldIndex else {
            let records = try db.link.rows("SELECT \(Self.columns) FROM record WHERE zone_id = $1", [zoneRowID]).map(Self.record)
            return try MemoryQueryStorage(zoneRecords: records, type: type)
        }
        // A query inside a write sees that write's rows.
        try db.flushFieldRows()
        return PostgresQueryStorage(db: db, zoneRowID: zoneRowID, typeID: type.id)
    }

    // MARK: Writing

    func insert(_ row: RecordRow, fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry,
                buffer: (any IndexRowBuffering)?, clearingTombstone: Bool) throws -> Int64? {
        if clearingTombstone { try clearTombstone(of: row) }
        guard let id = try db.insertRecord(row, tokens: Self.tokens(of: fields, type: type), targets: fields.deleteSelfTargets.sorted()) else { return nil }
        try PostgresFieldIndex(db: db).write(PostgresFieldIndex.rows(recordID: id, zoneRowID: row.zoneRowID, fields: fields, type: type), through: buffer)
        return id
    }

    /// Inserts a record's row; nil when the zone holds that name already.
    func insertRow(_ row: RecordRow, tokens: [String], targets: [String]) throws -> Int64? {
        try db.link.integer("""
            INSERT INTO record (zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent,
                                changed_keys, tokens, delete_targets)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (zone_id, name) DO NOTHING RETURNING id
            """, Self.binds(row) + [tokens, targets])
    }

    /// The row is changed only while it still has `existing`'s change tag: a writer that read an
    /// older record than the one committed runs again (and then meets the new tag). Its
    /// `field_value` rows are written again unless the same bytes are kept under a type indexed
    /// alike; a schema change's rebuild (no byte changed) rewrites its tokens too.
    func replace(_ existing: StoredRecord, oldFields: [String: FieldValue]?, oldType: SchemaCatalog.TypeEntry, update: RecordRowUpdate,
                 fields: [String: FieldValue], tokens: FieldTokens?, type: SchemaCatalog.TypeEntry, buffer: (any IndexRowBuffering)?) throws {
        let derived: [any PostgresBinding] = [Self.tokens(of: fields, type: type), fields.deleteSelfTargets.sorted(), existing.id, existing.changeTag]
        let changed: Int
        switch update {
        case .all(let row):
            changed = try db.link.run("""
                UPDATE record SET fields = $1, change_tag = $2, seq = $3, created_at = $4, created_by = $5, modified_at = $6, modified_by = $7,
                    parent = $8, changed_keys = $9, type_id = $10, tokens = $11, delete_targets = $12
                WHERE id = $13 AND change_tag = $14
                """, [row.blob, row.changeTag, row.sequence, row.createdAt, row.createdBy, row.modifiedAt, row.modifiedBy, row.parent,
                      row.changedKeys, row.typeID] + derived)
        case .fields(let blob, let changeTag, let sequence, let modifiedAt, let modifiedBy, let changedKeys):
            changed = try db.link.run("""
                UPDATE record SET fields = $1, change_tag = $2, seq = $3, modified_at = $4, modified_by = $5, changed_keys = $6,
                    tokens = $7, delete_targets = $8
                WHERE id = $9 AND change_tag = $10
                """, [blob, changeTag, sequence, modifiedAt, modifiedBy, changedKeys] + derived)
        case .unchanged:
            changed = 1
        }
        guard changed == 1 else {
            throw PostgresFailure(sqlState: "40001", message: "The record '\(existing.name)' changed under this write.")
        }
        let storedAlike = update.blob.map { $0 == existing.fieldsBlob } ?? true
        let indexedAlike = oldType.id == type.id && oldType.fields == type.fields
        guard !(storedAlike && indexedAlike) else { return }
        if case .unchanged = update {
            try db.link.run("UPDATE record SET tokens = $1 WHERE id = $2", [Self.tokens(of: fields, type: type), existing.id])
        }
        // Rows of this record still held would be written after the removal: written first.
        try (buffer as? PostgresIndexRowBuffer)?.flush()
        let index = PostgresFieldIndex(db: db)
        try index.remove(recordID: existing.id)
        try index.write(PostgresFieldIndex.rows(recordID: existing.id, zoneRowID: existing.zoneRowID, fields: fields, type: type), through: buffer)
    }

    func delete(_ victim: StoredRecord, catalog: SchemaCatalog, sequence: Int64) throws {
        guard catalog.typeNames[victim.typeID] != nil else { return }
        try PostgresFieldIndex(db: db).remove(recordID: victim.id)
        try db.link.run("DELETE FROM record WHERE id = $1", [victim.id])
        try db.link.run("""
            INSERT INTO tombstone (zone_id, name, type_id, seq) VALUES ($1, $2, $3, $4)
            ON CONFLICT (zone_id, name) DO UPDATE SET type_id = excluded.type_id, seq = excluded.seq
            """, [victim.zoneRowID, victim.name, victim.typeID, sequence])
    }

    func clearTombstone(of row: RecordRow) throws {
        try db.link.run("DELETE FROM tombstone WHERE zone_id = $1 AND name = $2", [row.zoneRowID, row.name])
    }

    func touch(zoneRowID: Int64, name: String, changeTag: String, sequence: Int64, modifiedAt: Int64) throws {
        try db.link.run("UPDATE record SET change_tag = $1, seq = $2, modified_at = $3, changed_keys = '' WHERE zone_id = $4 AND name = $5",
                        [changeTag, sequence, modifiedAt, zoneRowID, name])
    }

    // MARK: Bulk writes

    func makeIndexBuffer(limit: Int) -> any IndexRowBuffering { PostgresIndexRowBuffer(db: db, limit: limit) }

    func makeBulkInserter() throws -> any BulkRecordInserting { PostgresBulkInserter(db: db) }

    func indexer(zoneRowID: Int64, type: SchemaCatalog.TypeEntry, buffer: any IndexRowBuffering) -> any RecordIndexing {
        PostgresBulkIndexer(db: db, zoneRowID: zoneRowID, type: type, buffer: buffer as? PostgresIndexRowBuffer)
    }

    // MARK: Rows

    /// A record row's columns, in the order of the insert's first twelve.
    static func binds(_ row: RecordRow) -> [any PostgresBinding] {
        [row.zoneRowID, row.name, row.typeID, row.blob, row.changeTag, row.sequence, row.createdAt, row.createdBy, row.modifiedAt,
         row.modifiedBy, row.parent, row.changedKeys]
    }

    /// The engine's own tokens of the type's SEARCHABLE fields (what `self CONTAINS` matches).
    /// Sorted, each once: sorting the list and skipping repeats costs a third of gathering the
    /// tokens in a set and sorting that (a record has some twenty).
    static func tokens(of fields: [String: FieldValue], type: SchemaCatalog.TypeEntry?) -> [String] {
        guard let type else { return [] }
        var tokens: [String] = []
        for (name, value) in fields where type.fields[name]?.searchesText == true { tokens += TextTokenizer.tokens(of: value) }
        tokens.sort()
        var kept = 0
        for index in tokens.indices where kept == 0 || tokens[kept - 1] != tokens[index] {
            tokens[kept] = tokens[index]
            kept += 1
        }
        tokens.removeSubrange(kept...)
        return tokens
    }

    static func record(_ row: PostgresRowReader) throws -> StoredRecord {
        StoredRecord(id: try row.int(0), zoneRowID: try row.int(1), name: try row.string(2), typeID: try row.int(3), fieldsBlob: try row.data(4),
                     changeTag: try row.string(5), sequence: try row.int(6), createdAt: try row.int(7), createdBy: try row.string(8),
                     modifiedAt: try row.int(9), modifiedBy: try row.string(10), parent: try row.optionalString(11))
    }
}

/// Records by name, in the transaction.
struct PostgresRecordNameLookup: RecordNameLookup {
    let db: PostgresTransaction

    func find(zoneRowID: Int64, name: String) throws -> StoredRecord? {
        try PostgresRecordStorage(db: db).find(zoneRowID: zoneRowID, name: name)
    }

    func find(zoneRowID: Int64, names: [String]) throws -> [String: StoredRecord] {
        try PostgresRecordStorage(db: db).find(zoneRowID: zoneRowID, names: names)
    }
}
