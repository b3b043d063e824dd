import StratusCloud
import StratusModel

/// The schema catalog as stored (record types, fields, grants, roles) and the store's one info
/// row (identity, format, environment, owner, and the schema's version, which every process
/// checks to know when to reload the catalog).
package protocol SchemaStorage {
    /// The store's info row; nil before a new store is set up.
    func storeInfo() throws -> StoreInfo?

    /// Moves the store to another environment (a schema import into production).
    func setEnvironment(_ environment: StoreEnvironment) throws

    /// The schema's version: it grows with every change to the schema.
    func schemaVersion() throws -> Int64

    /// Moves the schema's version on (every process then reloads the schema) and returns it.
    func advanceSchemaVersion() throws -> Int64

    /// Every record type with its encoded system indexes; `retired` for one a schema import
    /// removed (only tombstones still name it).
    func recordTypes() throws -> [(id: Int64, name: String, systemIndexes: String, retired: Bool)]

    /// Every field of every type: its stored type (`FieldType`'s description) and raw indexes.
    func fields() throws -> [(id: Int64, typeID: Int64, name: String, fieldType: String, indexes: Int)]

    /// Every type's GRANT lines, by type and in their order.
    func grants() throws -> [(typeID: Int64, permissions: String, role: String)]

    /// Adds a record type (a retired one comes back under its old id) and returns its id.
    func insertType(_ name: String, systemIndexes: String) throws -> Int64

    /// Adds a field to a type and returns the field's id.
    func insertField(_ field: SchemaField, typeID: Int64) throws -> Int64

    /// The type names fields were declared with where they differ from their stored type
    /// (`LIST<REFERENCE>`), by type row id and field name: exports print them back.
    func declaredSpellings() throws -> [Int64: [String: String]]

    /// The custom roles the schema declares, by name.
    func declaredRoles() throws -> [String]

    /// A type the new schema no longer declares: kept (its id stays taken) but with no fields,
    /// grants or system indexes.
    func retireType(_ typeID: Int64) throws

    func setSystemIndexes(_ encoded: String, ofType typeID: Int64) throws

    func removeField(_ name: String, ofType typeID: Int64) throws

    /// Writes a declared field's type, indexes and spelling (new, or over the field of that name).
    func writeField(_ field: FieldDeclaration, ofType typeID: Int64, replacing: Bool) throws

    /// The type's GRANT lines, in their order, in place of the old ones.
    func replaceGrants(_ grants: [GrantDeclaration], ofType typeID: Int64) throws

    /// The schema's custom roles, in place of the old ones.
    func replaceRoles(_ roles: Set<String>) throws
}
