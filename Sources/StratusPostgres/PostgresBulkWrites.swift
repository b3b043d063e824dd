import StratusCloud
import StratusEngine
import StratusModel

/// The import's rows, inserted one statement at a time under the ids the import gives; the
/// record id sequence is then moved past them so later saves do not collide.
struct PostgresBulkInserter: BulkRecordInserting {
    let db: PostgresTransaction

    var rowsPerChunk: Int { 256 }

    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64) throws -> Set<Int> {
        var skipped = Set<Int>()
        for (index, row) in rows.enumerated() {
            let inserted = try db.link.run("""
                INSERT INTO record (zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent,
                                    changed_keys, id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (zone_id, name) DO NOTHING
                """, PostgresRecordStorage.binds(row) + [firstID + Int64(index)])
            if inserted == 0 { skipped.insert(index) }
        }
        try db.link.rows("""
            SELECT setval(pg_get_serial_sequence('record', 'id'), GREATEST((SELECT max(id) FROM record), (SELECT last_value FROM record_id_seq)))
            """)
        return skipped
    }
}

/// A bulk write's `field_value` rows, held back and written a thousand to a statement when
/// `limit` are held or the engine flushes (before a commit, or before a held record is
/// replaced); one statement per record cost an import a round trip per record.
final class PostgresIndexRowBuffer: IndexRowBuffering {
    private let index: PostgresFieldIndex
    private let limit: Int
    private var rows: [PostgresFieldIndex.Row] = []

    init(db: PostgresTransaction, limit: Int) {
        index = PostgresFieldIndex(db: db)
        // Held rows are memory only: past some tens of thousands, writing them is as cheap.
        self.limit = min(max(limit, PostgresFieldIndex.rowsPerStatement), 50_000)
    }

    func append(_ new: [PostgresFieldIndex.Row]) throws {
        rows += new
        if rows.count >= limit { try flush() }
    }

    func flush() throws {
        guard !rows.isEmpty else { return }
        let held = rows
        rows = []
        try index.insert(held)
    }
}

/// A bulk write's index rows of one zone and type's new records: the `field_value` rows go to
/// the buffer (or are written at once without one); the tokens and DELETE_SELF targets are
/// written onto the record's row at once.
struct PostgresBulkIndexer: RecordIndexing {
    let db: PostgresTransaction
    let zoneRowID: Int64
    let type: SchemaCatalog.TypeEntry
    let buffer: (any IndexRowBuffering)?

    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws {
        try PostgresFieldIndex(db: db).write(PostgresFieldIndex.rows(recordID: recordID, zoneRowID: zoneRowID, fields: fields, type: type), through: buffer)
        let tokens = PostgresRecordStorage.tokens(of: fields, type: type)
        let targets = fields.deleteSelfTargets.sorted()
        guard !tokens.isEmpty || !targets.isEmpty else { return }
        try db.link.run("UPDATE record SET tokens = $1, delete_targets = $2 WHERE id = $3", [tokens, targets, recordID])
    }
}
