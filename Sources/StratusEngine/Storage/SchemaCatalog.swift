import Foundation
import GRDB
import StratusModel
import StratusCloud

/// The store's record types and fields with their row ids, as one transaction sees them.
///
/// Loaded once per schema version and shared; a write that grows the schema (development)
/// works on a copy and persists what it added.
struct SchemaCatalog: Sendable {
    var version: Int64
    var types: [String: TypeEntry]
    var typeNames: [Int64: String]
    /// Each type's GRANT entries (public-database security roles), by type id; a type with
    /// none declared has no entry.
    var grants: [Int64: [GrantDeclaration]] = [:]

    func type(named name: String) -> TypeEntry? { types[name] }

    static func load(_ db: StoreTransaction, version: Int64) throws -> SchemaCatalog {
        var catalog = SchemaCatalog(version: version, types: [:], typeNames: [:])
        for row in try Row.fetchAll(db.sqlite, sql: "SELECT id, name, system_indexes, retired FROM record_type") {
            let id: Int64 = row["id"]
            let name: String = row["name"]
            if row["retired"] as Bool {
                // Removed by a schema import: only tombstones still name it.
                if catalog.typeNames[id] == nil { catalog.typeNames[id] = name }
                continue
            }
            let systemIndexes = decodeSystemIndexes(row["system_indexes"])
            catalog.types[name] = TypeEntry(id: id, schema: RecordTypeSchema(name: name, systemIndexes: systemIndexes), fieldIDs: [:])
            catalog.typeNames[id] = name
        }
        // Each type's fields gathered first and set once: every change to a type's schema or
        // ids rebuilds its field table (`TypeEntry.fields`).
        var declared: [String: (fields: [String: SchemaField], ids: [String: Int64])] = [:]
        for row in try Row.fetchAll(db.sqlite, sql: "SELECT id, type_id, name, field_type, indexes FROM schema_field") {
            let typeID: Int64 = row["type_id"]
            guard let typeName = catalog.typeNames[typeID], catalog.types[typeName] != nil,
                  let type = FieldType(parsing: row["field_type"]) else { continue }
            let name: String = row["name"]
            declared[typeName, default: ([:], [:])].fields[name] = SchemaField(name: name, type: type, indexes: FieldIndexes(rawValue: row["indexes"]))
            declared[typeName, default: ([:], [:])].ids[name] = row["id"]
        }
        for (typeName, fields) in declared {
            guard let entry = catalog.types[typeName] else { continue }
            var schema = entry.schema
            schema.fields = fields.fields
            catalog.types[typeName] = TypeEntry(id: entry.id, schema: schema, fieldIDs: fields.ids)
        }
        for row in try Row.fetchAll(db.sqlite, sql: "SELECT type_id, permissions, role FROM schema_grant ORDER BY type_id, position") {
            let permissions = (row["permissions"] as String).split(separator: ",")
                .compactMap { GrantDeclaration.Permission(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
            catalog.grants[row["type_id"], default: []].append(GrantDeclaration(permissions, to: row["role"]))
        }
        return catalog
    }

    /// Adds a record type in the transaction and to this catalog.
    mutating func addType(_ name: String, systemIndexes: [SystemField: FieldIndexes], in db: StoreTransaction) throws -> TypeEntry {
        // A type a schema import retired comes back under its old id.
        try db.sqlite.execute(sql: """
            INSERT INTO record_type (name, system_indexes) VALUES (?, ?)
            ON CONFLICT (name) DO UPDATE SET system_indexes = excluded.system_indexes, retired = 0
            """, arguments: [name, SchemaCatalog.encodeSystemIndexes(systemIndexes)])
        let id = try Int64.fetchOne(db.sqlite, sql: "SELECT id FROM record_type WHERE name = ?", arguments: [name]) ?? db.sqlite.lastInsertedRowID
        let entry = TypeEntry(id: id, schema: RecordTypeSchema(name: name, systemIndexes: systemIndexes), fieldIDs: [:])
        types[name] = entry
        typeNames[entry.id] = name
        return entry
    }

    /// Adds a field to a type in the transaction and to this catalog.
    mutating func addField(_ field: SchemaField, toType typeName: String, in db: StoreTransaction) throws {
        guard let entry = types[typeName] else { return }
        try db.sqlite.execute(sql: "INSERT INTO schema_field (type_id, name, field_type, indexes) VALUES (?, ?, ?, ?)",
                       arguments: [entry.id, field.name, field.type.description, field.indexes.rawValue])
        types[typeName]?.schema.fields[field.name] = field
        types[typeName]?.fieldIDs[field.name] = db.sqlite.lastInsertedRowID
    }

    static func encodeSystemIndexes(_ indexes: [SystemField: FieldIndexes]) -> String {
        indexes.keys.sorted { $0.rawValue < $1.rawValue }
            .map { "\($0.rawValue)=\(indexes[$0]!.rawValue)" }
            .joined(separator: ",")
    }

    static func decodeSystemIndexes(_ text: String) -> [SystemField: FieldIndexes] {
        var result: [SystemField: FieldIndexes] = [:]
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: "=")
            guard pieces.count == 2, let field = SystemField(rawValue: String(pieces[0])), let raw = Int(pieces[1]) else { continue }
            result[field] = FieldIndexes(rawValue: raw)
        }
        return result
    }
}
