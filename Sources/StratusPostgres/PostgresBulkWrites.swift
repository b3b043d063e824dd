import StratusCloud
import StratusEngine
import StratusModel

/// The import's (and a store copy's) record rows, inserted many to a statement under the ids
/// the caller gives; the record id sequence is then moved past them so later saves do not
/// collide. One statement a chunk, not one a row: a round trip each was 3 ms a record.
struct PostgresBulkInserter: BulkRecordInserting {
    let db: PostgresTransaction

    var rowsPerChunk: Int { 256 }

    func insert(_ rows: UnsafeBufferPointer<RecordRow>, firstID: Int64) throws -> Set<Int> {
        guard !rows.isEmpty else { return [] }
        var tuples: [String] = []
        var binds: [any PostgresBinding] = []
        for (index, row) in rows.enumerated() {
            let first = binds.count
            tuples.append("(" + (1...13).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
            binds += PostgresRecordStorage.binds(row) + [firstID + Int64(index)]
        }
        let inserted = try db.link.rows("""
            INSERT INTO record (zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent,
                                changed_keys, id)
            VALUES \(tuples.joined(separator: ", ")) ON CONFLICT (zone_id, name) DO NOTHING RETURNING id
            """, binds)
        let insertedIDs = Set(try inserted.map { try $0.int(0) })
        try db.link.rows("""
            SELECT setval(pg_get_serial_sequence('record', 'id'), GREATEST((SELECT max(id) FROM record), (SELECT last_value FROM record_id_seq)))
            """)
        return Set(rows.indices.filter { !insertedIDs.contains(firstID + Int64($0)) })
    }
}

/// A bulk write's "index rows": each new record's tokens and DELETE_SELF targets, held and
/// written onto the records' rows a few hundred to a statement when flushed (or when full).
final class PostgresIndexBuffer: IndexRowBuffering {
    private let db: PostgresTransaction
    private var held: [(id: Int64, tokens: [String], targets: [String])] = []

    /// Records held before they are written.
    static let limit = 500

    init(db: PostgresTransaction) { self.db = db }

    func hold(id: Int64, tokens: [String], targets: [String]) throws {
        held.append((id, tokens, targets))
        if held.count >= Self.limit { try flush() }
    }

    func flush() throws {
        guard !held.isEmpty else { return }
        var tuples: [String] = []
        var binds: [any PostgresBinding] = []
        for row in held {
            let first = binds.count
            tuples.append("($\(first + 1)::bigint, $\(first + 2)::text[], $\(first + 3)::text[])")
            binds += [row.id, row.tokens, row.targets] as [any PostgresBinding]
        }
        held.removeAll(keepingCapacity: true)
        try db.link.run("""
            UPDATE record SET tokens = v.tokens, delete_targets = v.targets FROM (VALUES \(tuples.joined(separator: ", "))) AS v (id, tokens, targets)
            WHERE record.id = v.id
            """, binds)
    }
}

/// Adds one zone and type's new records' tokens and DELETE_SELF targets, through a
/// ``PostgresIndexBuffer`` when given one, else at once.
struct PostgresBulkIndexer: RecordIndexing {
    let db: PostgresTransaction
    let type: SchemaCatalog.TypeEntry
    let buffer: PostgresIndexBuffer?

    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws {
        let tokens = PostgresRecordStorage.tokens(of: fields, type: type)
        let targets = fields.deleteSelfTargets.sorted()
        guard !tokens.isEmpty || !targets.isEmpty else { return }
        if let buffer { return try buffer.hold(id: recordID, tokens: tokens, targets: targets) }
        try db.link.run("UPDATE record SET tokens = $1, delete_targets = $2 WHERE id = $3", [tokens, targets, recordID])
    }
}
