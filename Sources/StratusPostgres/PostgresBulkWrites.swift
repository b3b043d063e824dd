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

/// A bulk write's "index rows": a new record's tokens and DELETE_SELF targets, written onto its
/// row at once (nothing is held, so flushing does nothing).
final class PostgresBulkIndexer: IndexRowBuffering, RecordIndexing {
    private let db: PostgresTransaction
    private let type: SchemaCatalog.TypeEntry?

    init(db: PostgresTransaction, type: SchemaCatalog.TypeEntry?) {
        self.db = db
        self.type = type
    }

    func flush() throws {}

    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws {
        let tokens = PostgresRecordStorage.tokens(of: fields, type: type)
        let targets = fields.deleteSelfTargets.sorted()
        guard !tokens.isEmpty || !targets.isEmpty else { return }
        try db.link.run("UPDATE record SET tokens = $1, delete_targets = $2 WHERE id = $3", [tokens, targets, recordID])
    }
}
