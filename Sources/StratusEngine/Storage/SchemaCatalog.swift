import Foundation
import StratusModel
import StratusCloud

/// The store's record types and fields with their row ids, as one transaction sees them.
///
/// Loaded once per schema version and shared; a write that grows the schema (development)
/// works on a copy and persists what it added.
package struct SchemaCatalog: Sendable {
    var version: Int64
    package var types: [String: TypeEntry]
    package var typeNames: [Int64: String]
    /// Each type's GRANT entries (public-database security roles), by type id; a type with
    /// none declared has no entry.
    var grants: [Int64: [GrantDeclaration]] = [:]
    /// The store's environment: only a schema import changes it, and that advances the version.
    package var environment: StoreEnvironment = .development

    package func type(named name: String) -> TypeEntry? { types[name] }

    /// The catalog as `db` holds it, at schema `version`.
    package static func load(_ db: StoreTransaction, version: Int64) throws -> SchemaCatalog {
        var catalog = SchemaCatalog(version: version, types: [:], typeNames: [:])
        catalog.environment = try db.schema.storeInfo()?.environment ?? .development
        for row in try db.schema.recordTypes() {
            if row.retired {
                // Removed by a schema import: only tombstones still name it.
                if catalog.typeNames[row.id] == nil { catalog.typeNames[row.id] = row.name }
                continue
            }
            let systemIndexes = decodeSystemIndexes(row.systemIndexes)
            catalog.types[row.name] = TypeEntry(id: row.id, schema: RecordTypeSchema(name: row.name, systemIndexes: systemIndexes), fieldIDs: [:])
            catalog.typeNames[row.id] = row.name
        }
        // Each type's fields gathered first and set once: every change to a type's schema or
        // ids rebuilds its field table (`TypeEntry.fields`).
        var declared: [String: (fields: [String: SchemaField], ids: [String: Int64])] = [:]
        let spellings = try db.schema.declaredSpellings()
        for row in try db.schema.fields() {
            guard let typeName = catalog.typeNames[row.typeID], catalog.types[typeName] != nil,
                  let type = FieldType(parsing: row.fieldType) else { continue }
            let encrypted = spellings[row.typeID]?[row.name].flatMap(DeclaredFieldType.init(spelling:))?.isEncrypted ?? false
            declared[typeName, default: ([:], [:])].fields[row.name] = SchemaField(name: row.name, type: type, indexes: FieldIndexes(rawValue: row.indexes),
                                                                                  isEncrypted: encrypted)
            declared[typeName, default: ([:], [:])].ids[row.name] = row.id
        }
        for (typeName, fields) in declared {
            guard let entry = catalog.types[typeName] else { continue }
            var schema = entry.schema
            schema.fields = fields.fields
            catalog.types[typeName] = TypeEntry(id: entry.id, schema: schema, fieldIDs: fields.ids)
        }
        for row in try db.schema.grants() {
            let permissions = row.permissions.split(separator: ",")
                .compactMap { GrantDeclaration.Permission(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
            catalog.grants[row.typeID, default: []].append(GrantDeclaration(permissions, to: row.role))
        }
        return catalog
    }

    /// Adds a record type in the transaction and to this catalog.
    package mutating func addType(_ name: String, systemIndexes: [SystemField: FieldIndexes], in db: StoreTransaction) throws -> TypeEntry {
        let id = try db.schema.insertType(name, systemIndexes: SchemaCatalog.encodeSystemIndexes(systemIndexes))
        let entry = TypeEntry(id: id, schema: RecordTypeSchema(name: name, systemIndexes: systemIndexes), fieldIDs: [:])
        types[name] = entry
        typeNames[entry.id] = name
        return entry
    }

    /// Adds a field to a type in the transaction and to this catalog.
    package mutating func addField(_ field: SchemaField, toType typeName: String, in db: StoreTransaction) throws {
        guard let entry = types[typeName] else { return }
        let fieldID = try db.schema.insertField(field, typeID: entry.id)
        types[typeName]?.schema.fields[field.name] = field
        types[typeName]?.fieldIDs[field.name] = fieldID
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
