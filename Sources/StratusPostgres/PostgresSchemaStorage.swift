import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The schema catalog and the store's info in a PostgreSQL store.
struct PostgresSchemaStorage: SchemaStorage {
    let db: PostgresTransaction

    func storeInfo() throws -> StoreInfo? {
        guard let row = try db.link.rows("SELECT uuid, format_version, environment, owner, schema_version FROM store_info WHERE id = 1").first,
              let uuid = UUID(uuidString: try row.string(0)) else { return nil }
        return StoreInfo(uuid: uuid, formatVersion: Int(try row.int(1)), environment: StoreEnvironment(rawValue: try row.string(2)) ?? .development,
                         owner: try row.string(3), schemaVersion: try row.int(4))
    }

    func setEnvironment(_ environment: StoreEnvironment) throws {
        try db.link.run("UPDATE store_info SET environment = $1 WHERE id = 1", [environment.rawValue])
    }

    func schemaVersion() throws -> Int64 {
        if let facts = try db.openingFacts() { return facts.schemaVersion }
        return try db.link.integer("SELECT schema_version FROM store_info WHERE id = 1") ?? 0
    }

    func advanceSchemaVersion() throws -> Int64 {
        try db.link.integer("UPDATE store_info SET schema_version = schema_version + 1 WHERE id = 1 RETURNING schema_version") ?? 0
    }

    func recordTypes() throws -> [(id: Int64, name: String, systemIndexes: String, retired: Bool)] {
        try db.link.rows("SELECT id, name, system_indexes, retired FROM record_type ORDER BY id").map {
            (try $0.int(0), try $0.string(1), try $0.string(2), try $0.bool(3))
        }
    }

    func fields() throws -> [(id: Int64, typeID: Int64, name: String, fieldType: String, indexes: Int)] {
        try db.link.rows("SELECT id, type_id, name, field_type, indexes FROM schema_field ORDER BY id").map {
            (try $0.int(0), try $0.int(1), try $0.string(2), try $0.string(3), Int(try $0.int(4)))
        }
    }

    func grants() throws -> [(typeID: Int64, permissions: String, role: String)] {
        try db.link.rows("SELECT type_id, permissions, role FROM schema_grant ORDER BY type_id, position").map {
            (try $0.int(0), try $0.string(1), try $0.string(2))
        }
    }

    /// A type a schema import retired comes back under its old id.
    func insertType(_ name: String, systemIndexes: String) throws -> Int64 {
        try db.link.integer("""
            INSERT INTO record_type (name, system_indexes) VALUES ($1, $2)
            ON CONFLICT (name) DO UPDATE SET system_indexes = excluded.system_indexes, retired = false RETURNING id
            """, [name, systemIndexes]) ?? 0
    }

    func insertField(_ field: SchemaField, typeID: Int64) throws -> Int64 {
        try addField(typeID: typeID, name: field.name, fieldType: field.type.description, indexes: field.indexes.rawValue, declared: nil)
    }

    func declaredSpellings() throws -> [Int64: [String: String]] {
        var result: [Int64: [String: String]] = [:]
        for row in try db.link.rows("SELECT type_id, name, declared_type FROM schema_field WHERE declared_type IS NOT NULL") {
            result[try row.int(0), default: [:]][try row.string(1)] = try row.string(2)
        }
        return result
    }

    func declaredRoles() throws -> [String] { try db.link.rows("SELECT name FROM schema_role ORDER BY name").map { try $0.string(0) } }

    func retireType(_ typeID: Int64) throws {
        try db.link.run("UPDATE record_type SET retired = true, system_indexes = '' WHERE id = $1", [typeID])
        try db.link.run("DELETE FROM schema_field WHERE type_id = $1", [typeID])
        try db.link.run("DELETE FROM schema_grant WHERE type_id = $1", [typeID])
    }

    func setSystemIndexes(_ encoded: String, ofType typeID: Int64) throws {
        try db.link.run("UPDATE record_type SET system_indexes = $1 WHERE id = $2", [encoded, typeID])
    }

    func removeField(_ name: String, ofType typeID: Int64) throws {
        try db.link.run("DELETE FROM schema_field WHERE type_id = $1 AND name = $2", [typeID, name])
    }

    func writeField(_ field: FieldDeclaration, ofType typeID: Int64, replacing: Bool) throws {
        let spelling = field.type.isPlain ? nil : field.type.description
        if replacing {
            try db.link.run("UPDATE schema_field SET field_type = $1, indexes = $2, declared_type = $3 WHERE type_id = $4 AND name = $5",
                            [field.type.storageType.description, field.indexes.rawValue, spelling, typeID, field.name])
        } else {
            _ = try addField(typeID: typeID, name: field.name, fieldType: field.type.storageType.description, indexes: field.indexes.rawValue,
                             declared: spelling)
        }
    }

    func replaceGrants(_ grants: [GrantDeclaration], ofType typeID: Int64) throws {
        try db.link.run("DELETE FROM schema_grant WHERE type_id = $1", [typeID])
        for (position, grant) in grants.enumerated() {
            try db.link.run("INSERT INTO schema_grant (type_id, position, permissions, role) VALUES ($1, $2, $3, $4)",
                            [typeID, position, grant.permissions.map(\.rawValue).joined(separator: ", "), grant.role])
        }
    }

    func replaceRoles(_ roles: Set<String>) throws {
        try db.link.run("DELETE FROM schema_role")
        for role in roles.sorted() { try db.link.run("INSERT INTO schema_role (name) VALUES ($1)", [role]) }
    }

    private func addField(typeID: Int64, name: String, fieldType: String, indexes: Int, declared: String?) throws -> Int64 {
        try db.link.integer("INSERT INTO schema_field (type_id, name, field_type, indexes, declared_type) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                            [typeID, name, fieldType, indexes, declared]) ?? 0
    }
}
