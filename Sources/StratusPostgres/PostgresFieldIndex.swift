import StratusCloud
import StratusEngine
import StratusModel

/// The `field_value` rows of records, kept in the record's write transaction: one per element
/// of each QUERYABLE or SORTABLE field (a location under its ``ZOrderCode``, a string with its
/// case-folded key too), as SQLite's indexer writes them, so queries read an index rather
/// than the zone. A record's rows are found again by its id (`field_value_by_record`), so
/// replacing or deleting one never needs the fields it had.
struct PostgresFieldIndex {
    let db: PostgresTransaction

    /// One `field_value` row.
    struct Row {
        var zoneRowID: Int64
        var fieldID: Int64
        var key: PostgresIndexColumns
        var recordID: Int64
        var folded: String?
    }

    /// Rows per insert statement. Each column goes as one array (`unnest`), so the statement
    /// has nine binds whatever its size: PostgreSQL parses and binds it at once, where a
    /// `VALUES` list of eight binds a row took it longer to parse and bind than to insert.
    static let rowsPerStatement = 5000

    /// The rows `fields` of record `recordID` have under `type`.
    static func rows(recordID: Int64, zoneRowID: Int64, fields: [String: FieldValue], type: SchemaCatalog.TypeEntry) -> [Row] {
        var rows: [Row] = []
        for (name, value) in fields {
            guard let field = type.fields[name], field.indexesValues else { continue }
            let first = rows.count
            value.forEachElement { element in
                guard let key = IndexKey(element), let columns = PostgresIndexColumns(key.value) else { return }
                rows.append(Row(zoneRowID: zoneRowID, fieldID: field.id, key: columns, recordID: recordID, folded: key.foldedKey))
            }
            if rows.count - first > 1 { dropRepeats(in: &rows, from: first) }
        }
        return rows
    }

    /// Keeps the first of a list's elements that are one index key (a value twice in a list):
    /// the table's primary key holds each once, and an insert that may conflict
    /// (`ON CONFLICT DO NOTHING`) costs PostgreSQL two thirds more than a plain one.
    /// A list's elements are of one type, so equal columns are exactly equal keys.
    private static func dropRepeats(in rows: inout [Row], from first: Int) {
        struct Key: Hashable {
            let isText: Bool
            let number: String
            let text: String
        }
        var seen = Set<Key>()
        var kept = first
        for index in first..<rows.count where seen.insert(Key(isText: rows[index].key.isText, number: rows[index].key.number, text: rows[index].key.text)).inserted {
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeSubrange(kept...)
    }

    /// Writes rows through `buffer` when the write holds them back (a bulk write), else holds
    /// them in the transaction, which writes them together (``PostgresTransaction/flushFieldRows()``).
    func write(_ rows: [Row], through buffer: (any IndexRowBuffering)?) throws {
        if let buffer = buffer as? PostgresIndexRowBuffer { try buffer.append(rows) } else { db.heldFieldRows += rows }
    }

    /// Removes every row of a record, the held ones too.
    func remove(recordID: Int64) throws {
        if !db.heldFieldRows.isEmpty { db.heldFieldRows.removeAll { $0.recordID == recordID } }
        try db.link.run("DELETE FROM field_value WHERE record_id = $1", [recordID])
    }

    /// Inserts rows, many to a statement. A record's rows are new (its old ones removed first)
    /// and each key once (``rows(recordID:zoneRowID:fields:type:)``), so no row conflicts.
    func insert(_ rows: [Row]) throws {
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + Self.rowsPerStatement, rows.count)]
            // `folded` is the one column that may be NULL, and an array bind holds no NULLs:
            // a flag says which rows have it.
            let binds: [any PostgresBinding] = [chunk.map(\.zoneRowID), chunk.map(\.fieldID), chunk.map(\.key.isText),
                                                chunk.map(\.key.number), chunk.map(\.key.text), chunk.map(\.recordID),
                                                chunk.map(\.key.isReal), chunk.map { $0.folded != nil }, chunk.map { $0.folded ?? "" }]
            try db.link.run("""
                INSERT INTO field_value (zone_id, field_id, is_text, number, text, record_id, is_real, folded)
                SELECT zone_id, field_id, is_text, number::numeric, text, record_id, is_real, CASE WHEN has_folded THEN folded END
                FROM unnest($1::bigint[], $2::bigint[], $3::bool[], $4::text[], $5::text[], $6::bigint[], $7::bool[], $8::bool[], $9::text[])
                     AS v (zone_id, field_id, is_text, number, text, record_id, is_real, has_folded, folded)
                """, binds)
            start += chunk.count
        }
    }

    /// Writes the rows of every record under today's schema, and its tokens where they differ:
    /// the upgrade of a store whose records were written before this index (format 3), in the
    /// upgrade's transaction. Records are read a few thousand at a time, in id order.
    func buildAll() throws {
        let catalog = try SchemaCatalog.load(db.store, version: 0)
        let types = Dictionary(catalog.types.values.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let buffer = PostgresIndexRowBuffer(db: db, limit: 50_000)
        var after: Int64 = 0
        while true {
            let rows = try db.link.rows("SELECT \(PostgresRecordStorage.columns), tokens FROM record WHERE id > $1 ORDER BY id LIMIT 2000", [after])
            guard let last = rows.last else { break }
            after = try last.int(0)
            for row in rows {
                let stored = try PostgresRecordStorage.record(row)
                // A record whose fields cannot be read fails wherever it is read; it must not
                // keep the whole store from opening.
                guard let type = types[stored.typeID], let fields = try? stored.fields() else { continue }
                try buffer.append(Self.rows(recordID: stored.id, zoneRowID: stored.zoneRowID, fields: fields, type: type))
                let tokens = PostgresRecordStorage.tokens(of: fields, type: type)
                if try row.strings(12) != tokens { try db.link.run("UPDATE record SET tokens = $1 WHERE id = $2", [tokens, stored.id]) }
            }
        }
        try buffer.flush()
    }
}
