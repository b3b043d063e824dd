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

/// A bulk write's index rows, held back and written many to a statement when enough are held
/// or the engine flushes (before a commit, or before a held record is replaced): the
/// `field_value` rows, and each new record's tokens and DELETE_SELF targets, which go onto its
/// row. One statement per record cost an import a round trip per record.
final class PostgresIndexRowBuffer: IndexRowBuffering {
    private let db: PostgresTransaction
    private let index: PostgresFieldIndex
    private let limit: Int
    private var rows: [PostgresFieldIndex.Row] = []
    private var held: [(id: Int64, tokens: [String], targets: [String])] = []

    /// Records whose tokens and targets are held before they are written.
    static let recordsPerUpdate = 500

    init(db: PostgresTransaction, limit: Int) {
        self.db = db
        index = PostgresFieldIndex(db: db)
        // Held rows are memory only: past some tens of thousands, writing them is as cheap.
        self.limit = min(max(limit, PostgresFieldIndex.rowsPerStatement), 50_000)
    }

    func append(_ new: [PostgresFieldIndex.Row]) throws {
        rows += new
        if rows.count >= limit { try flushRows() }
    }

    func hold(id: Int64, tokens: [String], targets: [String]) throws {
        held.append((id, tokens, targets))
        if held.count >= Self.recordsPerUpdate { try flushTokens() }
    }

    func flush() throws {
        try flushRows()
        try flushTokens()
    }

    private func flushRows() throws {
        guard !rows.isEmpty else { return }
        let written = rows
        rows = []
        try index.insert(written)
    }

    private func flushTokens() throws {
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

/// A bulk write's index rows of one zone and type's new records, through the buffer when given
/// one, else written at once.
struct PostgresBulkIndexer: RecordIndexing {
    let db: PostgresTransaction
    let zoneRowID: Int64
    let type: SchemaCatalog.TypeEntry
    let buffer: PostgresIndexRowBuffer?

    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws {
        try PostgresFieldIndex(db: db).write(PostgresFieldIndex.rows(recordID: recordID, zoneRowID: zoneRowID, fields: fields, type: type), through: buffer)
        let tokens = PostgresRecordStorage.tokens(of: fields, type: type)
        let targets = fields.deleteSelfTargets.sorted()
        guard !tokens.isEmpty || !targets.isEmpty else { return }
        if let buffer { return try buffer.hold(id: recordID, tokens: tokens, targets: targets) }
        try db.link.run("UPDATE record SET tokens = $1, delete_targets = $2 WHERE id = $3", [tokens, targets, recordID])
    }
}
