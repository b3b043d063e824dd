import Foundation
import GRDB
import StratusModel

/// Keeps a record's index rows in step with its fields, in the record's write transaction:
/// `field_value` rows for QUERYABLE/SORTABLE fields (one per list element), R*Tree entries for
/// locations, the full-text row for SEARCHABLE strings, and `reference_edge` rows for
/// DELETE_SELF references.
///
/// Removal recomputes the old rows from the old fields, so no by-record index is needed; that
/// holds as long as a schema change that alters indexes rebuilds the field it touches.
struct RecordIndexer {
    let db: GRDB.Database
    let zoneRowID: Int64
    let type: SchemaCatalog.TypeEntry

    func add(recordID: Int64, fields: [String: FieldValue]) throws {
        try apply(recordID: recordID, fields: fields, inserting: true)
    }

    func remove(recordID: Int64, fields: [String: FieldValue]) throws {
        try apply(recordID: recordID, fields: fields, inserting: false)
    }

    /// A full-text token as indexed: the folded word behind a prefix naming the zone and record
    /// type (`z4t2xharbour`), so a search reads only its own zone and type's postings.
    static func scopedToken(_ token: String, zoneRowID: Int64, typeID: Int64) -> String { "z\(zoneRowID)t\(typeID)x\(token)" }

    /// The SQL value a field value is indexed under, and its case-folded key for strings.
    static func indexKey(_ value: FieldValue) -> (DatabaseValue, String?)? {
        switch value {
        case .string(let text): return (text.databaseValue, CaseFolding.key(text))
        case .int64(let number): return (number.databaseValue, nil)
        case .double(let number): return (number.databaseValue, nil)
        case .timestamp(let date): return (FieldValue.milliseconds(date).databaseValue, nil)
        case .reference(let reference): return (reference.recordName.databaseValue, nil)
        default: return nil
        }
    }

    private func apply(recordID: Int64, fields: [String: FieldValue], inserting: Bool) throws {
        var text: [String] = []
        var locationSlot: Int64 = 0
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if case .reference = value.elements.first {
                for case .reference(let reference) in value.elements where reference.action == .deleteSelf {
                    try edge(target: reference.recordName, source: recordID, inserting: inserting)
                }
            }
            guard let field = type.schema.fields[name], let fieldID = type.fieldIDs[name] else { continue }
            if field.isSearchable, field.type.base == .string {
                for case .string(let string) in value.elements {
                    text.append(contentsOf: TextTokenizer.tokens(string).map { RecordIndexer.scopedToken($0, zoneRowID: zoneRowID, typeID: type.id) })
                }
            }
            guard field.isQueryable || field.isSortable else { continue }
            for element in value.elements {
                if case .location(let location) = element {
                    try locationEntry(fieldID: fieldID, location: location, recordID: recordID, slot: locationSlot, inserting: inserting)
                    locationSlot += 1
                } else if let (key, folded) = RecordIndexer.indexKey(element) {
                    try valueRow(fieldID: fieldID, value: key, folded: folded, recordID: recordID, inserting: inserting)
                }
            }
        }
        if inserting, !text.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO record_text (rowid, tokens) VALUES (?, ?)")
                .execute(arguments: [recordID, text.joined(separator: " ")])
        } else if !inserting {
            try db.cachedStatement(sql: "DELETE FROM record_text WHERE rowid = ?").execute(arguments: [recordID])
        }
    }

    private func valueRow(fieldID: Int64, value: DatabaseValue, folded: String?, recordID: Int64, inserting: Bool) throws {
        if inserting {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO field_value (zone_id, field_id, value, record_id, folded) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [zoneRowID, fieldID, value, recordID, folded])
        } else {
            try db.cachedStatement(sql: "DELETE FROM field_value WHERE zone_id = ? AND field_id = ? AND value = ? AND record_id = ?")
                .execute(arguments: [zoneRowID, fieldID, value, recordID])
        }
    }

    /// The R*Tree row id of a record's `slot`-th location: row ids are derived, not stored, so
    /// removal needs no lookup. A record keeps at most 65,536 indexed locations.
    static func locationEntryID(recordID: Int64, slot: Int64) -> Int64 { recordID << 16 | (slot & 0xFFFF) }

    private func locationEntry(fieldID: Int64, location: Location, recordID: Int64, slot: Int64, inserting: Bool) throws {
        guard slot <= 0xFFFF else { return }
        let id = RecordIndexer.locationEntryID(recordID: recordID, slot: slot)
        if inserting {
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO location_index (id, min_latitude, max_latitude, min_longitude, max_longitude, zone_id, field_id, record_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, location.latitude, location.latitude, location.longitude, location.longitude, zoneRowID, fieldID, recordID])
        } else {
            try db.cachedStatement(sql: "DELETE FROM location_index WHERE id = ?").execute(arguments: [id])
        }
    }

    private func edge(target: String, source: Int64, inserting: Bool) throws {
        let sql = inserting
            ? "INSERT OR IGNORE INTO reference_edge (zone_id, target, source_id) VALUES (?, ?, ?)"
            : "DELETE FROM reference_edge WHERE zone_id = ? AND target = ? AND source_id = ?"
        try db.cachedStatement(sql: sql).execute(arguments: [zoneRowID, target, source])
    }
}
