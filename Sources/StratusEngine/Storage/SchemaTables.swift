import GRDB
import StratusModel
import StratusCloud

/// The schema's tables as a schema import rewrites them: `record_type`, `schema_field`,
/// `schema_grant` and `schema_role` (``SchemaCatalog`` reads them back for every transaction).
enum SchemaTables {
    /// The type names fields were declared with where they differ from their stored type
    /// (`LIST<REFERENCE>`), by type row id and field name: exports print them back.
    static func declaredSpellings(in db: StoreTransaction) throws -> [Int64: [String: String]] {
        var result: [Int64: [String: String]] = [:]
        for row in try Row.fetchAll(db.sqlite, sql: "SELECT type_id, name, declared_type FROM schema_field WHERE declared_type IS NOT NULL") {
            result[row["type_id"], default: [:]][row["name"]] = row["declared_type"]
        }
        return result
    }

    /// The custom roles the schema declares, by name.
    static func declaredRoles(in db: StoreTransaction) throws -> [String] {
        try String.fetchAll(db.sqlite, sql: "SELECT name FROM schema_role ORDER BY name")
    }

    /// A type the new schema no longer declares: kept (its id stays taken) but with no fields,
    /// grants or system indexes.
    static func retireType(_ typeID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "UPDATE record_type SET retired = 1, system_indexes = '' WHERE id = ?", arguments: [typeID])
        try db.sqlite.execute(sql: "DELETE FROM schema_field WHERE type_id = ?", arguments: [typeID])
        try db.sqlite.execute(sql: "DELETE FROM schema_grant WHERE type_id = ?", arguments: [typeID])
    }

    static func setSystemIndexes(_ encoded: String, ofType typeID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "UPDATE record_type SET system_indexes = ? WHERE id = ?", arguments: [encoded, typeID])
    }

    static func removeField(_ name: String, ofType typeID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_field WHERE type_id = ? AND name = ?", arguments: [typeID, name])
    }

    /// Writes a declared field's type, indexes and spelling (new, or over the field of that name).
    static func writeField(_ field: FieldDeclaration, ofType typeID: Int64, replacing: Bool, in db: StoreTransaction) throws {
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
    static func replaceGrants(_ grants: [GrantDeclaration], ofType typeID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_grant WHERE type_id = ?", arguments: [typeID])
        for (position, grant) in grants.enumerated() {
            try db.sqlite.execute(sql: "INSERT INTO schema_grant (type_id, position, permissions, role) VALUES (?, ?, ?, ?)",
                           arguments: [typeID, position, grant.permissions.map(\.rawValue).joined(separator: ", "), grant.role])
        }
    }

    static func replaceRoles(_ roles: Set<String>, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "DELETE FROM schema_role")
        for role in roles { try db.sqlite.execute(sql: "INSERT INTO schema_role (name) VALUES (?)", arguments: [role]) }
    }
}
