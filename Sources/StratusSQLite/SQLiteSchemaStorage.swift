import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The schema's tables (`record_type`, `schema_field`, `schema_grant`, `schema_role`) and the
/// one `store_info` row.
struct SQLiteSchemaStorage: SchemaStorage {
    let db: SQLiteTransaction

    func storeInfo() throws -> StoreInfo? {
        guard let row = try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT uuid, format_version, environment, owner, schema_version FROM store_info WHERE id = 1")) else {
            return nil
        }
        let bytes: Data = row["uuid"]
        guard bytes.count == 16 else { return nil }
        let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return StoreInfo(
            uuid: uuid,
            formatVersion: row["format_version"],
            environment: StoreEnvironment(rawValue: row["environment"]) ?? .development,
            owner: row["owner"],
            schemaVersion: row["schema_version"]
        )
    }

    func setEnvironment(_ environment: StoreEnvironment) throws {
        try db.sqlite.execute(sql: "UPDATE store_info SET environment = ? WHERE id = 1", arguments: [environment.rawValue])
    }

    /// The schema's version: it grows with every change to the schema tables.
    func schemaVersion() throws -> Int64 {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT schema_version FROM store_info WHERE id = 1")) ?? 0
    }

    /// Moves the schema's version on (every process then reloads the schema) and returns it.
    func advanceSchemaVersion() throws -> Int64 {
        try db.sqlite.execute(sql: "UPDATE store_info SET schema_version = schema_version + 1 WHERE id = 1")
        return try schemaVersion()
    }

    static func uuidBytes(_ uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }

    func recordTypes() throws -> [(id: Int64, name: String, systemIndexes: String, retired: Bool)] {
        try Row.fetchAll(db.sqlite, sql: "SELECT id, name, system_indexes, retired FROM record_type").map { row in
            (row["id"], row["name"], row["system_indexes"], row["retired"])
        }
    }

    func fields() throws -> [(id: Int64, typeID: Int64, name: String, fieldType: String, indexes: Int)] {
        try Row.fetchAll(db.sqlite, sql: "SELECT id, type_id, name, field_type, indexes FROM schema_field").map { row in
            (row["id"], row["type_id"], row["name"], row["field_type"], row["indexes"])
        }
    }

    func grants() throws -> [(typeID: Int64, permissions: String, role: String)] {
        try Row.fetchAll(db.sqlite, sql: "SELECT type_id, permissions, role FROM schema_grant ORDER BY type_id, position").map { row in
            (row["type_id"], row["permissions"], row["role"])
        }
    }

    func insertType(_ name: String, systemIndexes: String) throws -> Int64 {
        // A type a schema import retired comes back under its old id.
        try db.sqlite.execute(sql: """
            INSERT INTO record_type (name, system_indexes) VALUES (?, ?)
            ON CONFLICT (name) DO UPDATE SET system_indexes = excluded.system_indexes, retired = 0
            """, arguments: [name, systemIndexes])
        return try Int64.fetchOne(db.sqlite, sql: "SELECT id FROM record_type WHERE name = ?", arguments: [name]) ?? db.sqlite.lastInsertedRowID
    }

    func insertField(_ field: SchemaField, typeID: Int64) throws -> Int64 {
        try db.sqlite.execute(sql: "INSERT INTO schema_field (type_id, name, field_type, indexes) VALUES (?, ?, ?, ?)",
                              arguments: [typeID, field.name, field.type.description, field.indexes.rawValue])
        return db.sqlite.lastInsertedRowID
    }

    /// The type names fields were declared with where they differ from their stored type
    /// (`LIST<REFERENCE>`), by type row id and field name: exports print them back.
    func declaredSpellings() throws -> [Int64: [String: String]] {
        var result: [Int64: [String: String]] = [:]
        for row in try Row.fetchAll(db.sqlite, sql: "SELECT type_id, name, declared_type FROM schema_field WHERE declared_type IS NOT NULL") {
            result[row["type_id"], default: [:]][row["name"]] = row["declared_type"]
        }
        return result
    }

    /// The custom roles the schema declares, by name.
    func declaredRoles() throws -> [String] {
        try String.fetchAll(db.sqlite, sql: "SELECT name FROM schema_role ORDER BY name")
    }

    /// A type the new schema no longer declares: kept (its id stays taken) but with no fields,
    /// grants or system indexes.
    func retireType(_ typeID: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE record_type SET retired = 1, system_indexes = '' WHERE id = ?", arguments: [typeID])
        try db.sqlite.execute(sql: "DELETE FROM schema_field WHERE type_id = ?", arguments: [typeID])
        try db.sqlite.execute(sql: "DELETE FROM schema_grant WHERE type_id = ?", arguments: [typeID])
    }

    func setSystemIndexes(_ encoded: String, ofType typeID: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE record_type SET system_indexes = ? WHERE id = ?", arguments: [encoded, typeID])
    }

    func removeField(_ name: String, ofType typeID: Int64) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_field WHERE type_id = ? AND name = ?", arguments: [typeID, name])
    }

    /// Writes a declared field's type, indexes and spelling (new, or over the field of that name).
    func writeField(_ field: FieldDeclaration, ofType typeID: Int64, replacing: Bool) throws {
        let spelling = field.type.isPlain ? nil : field.type.description
        if replacing {
            try db.sqlite.execute(sql: "UPDATE schema_field SET field_type = ?, indexes = ?, declared_type = ? WHERE type_id = ? AND name = ?",
                           arguments: [field.type.storageType.description, field.indexes.rawValue, spelling, typeID, field.name])
        } else {
            try db.sqlite.execute(sql: "INSERT INTO schema_field (type_id, name, field_type, indexes, declared_type) VALUES (?, ?, ?, ?, ?)",
                           arguments: [typeID, field.name, field.type.storageType.description, field.indexes.rawValue, spelling])
        }
    }

    /// The type's GRANT lines, in their order, in place of the old ones.
    func replaceGrants(_ grants: [GrantDeclaration], ofType typeID: Int64) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_grant WHERE type_id = ?", arguments: [typeID])
        for (position, grant) in grants.enumerated() {
            try db.sqlite.execute(sql: "INSERT INTO schema_grant (type_id, position, permissions, role) VALUES (?, ?, ?, ?)",
                           arguments: [typeID, position, grant.permissions.map(\.rawValue).joined(separator: ", "), grant.role])
        }
    }

    func replaceRoles(_ roles: Set<String>) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_role")
        for role in roles { try db.sqlite.execute(sql: "INSERT INTO schema_role (name) VALUES (?)", arguments: [role]) }
    }
}
