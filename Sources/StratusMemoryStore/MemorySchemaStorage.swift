import StratusCloud
import StratusEngine
import StratusModel

/// The schema catalog and the store's info in a memory store's tables.
struct MemorySchemaStorage: SchemaStorage {
    let db: MemoryTransaction

    func storeInfo() throws -> StoreInfo? {
        guard var info = db.tables.info else { return nil }
        info = StoreInfo(uuid: info.uuid, formatVersion: info.formatVersion, environment: info.environment, owner: info.owner,
                         schemaVersion: db.tables.schemaVersion)
        return info
    }

    func setEnvironment(_ environment: StoreEnvironment) throws { db.tables.info?.environment = environment }

    func schemaVersion() throws -> Int64 { db.tables.schemaVersion }

    func advanceSchemaVersion() throws -> Int64 {
        db.tables.schemaVersion += 1
        return db.tables.schemaVersion
    }

    func recordTypes() throws -> [(id: Int64, name: String, systemIndexes: String, retired: Bool)] {
        db.tables.types.sorted { $0.key < $1.key }.map { ($0.key, $0.value.name, $0.value.systemIndexes, $0.value.retired) }
    }

    func fields() throws -> [(id: Int64, typeID: Int64, name: String, fieldType: String, indexes: Int)] {
        db.tables.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.typeID, $0.value.name, $0.value.fieldType, $0.value.indexes) }
    }

    func grants() throws -> [(typeID: Int64, permissions: String, role: String)] {
        db.tables.grants.sorted { $0.key < $1.key }.flatMap { typeID, grants in grants.map { (typeID, $0.permissions, $0.role) } }
    }

    func insertType(_ name: String, systemIndexes: String) throws -> Int64 {
        // A type a schema import retired comes back under its old id.
        if let (id, _) = db.tables.types.first(where: { $0.value.name == name }) {
            db.tables.types[id]?.systemIndexes = systemIndexes
            db.tables.types[id]?.retired = false
            return id
        }
        db.tables.lastTypeID += 1
        db.tables.types[db.tables.lastTypeID] = MemoryTables.RecordType(name: name, systemIndexes: systemIndexes)
        return db.tables.lastTypeID
    }

    func insertField(_ field: SchemaField, typeID: Int64) throws -> Int64 {
        addField(MemoryTables.Field(typeID: typeID, name: field.name, fieldType: field.type.description, indexes: field.indexes.rawValue))
    }

    func declaredSpellings() throws -> [Int64: [String: String]] {
        var result: [Int64: [String: String]] = [:]
        for field in db.tables.fields.values {
            if let declared = field.declaredType { result[field.typeID, default: [:]][field.name] = declared }
        }
        return result
    }

    func declaredRoles() throws -> [String] { db.tables.roles.sorted() }

    func retireType(_ typeID: Int64) throws {
        db.tables.types[typeID]?.retired = true
        db.tables.types[typeID]?.systemIndexes = ""
        db.tables.fields = db.tables.fields.filter { $0.value.typeID != typeID }
        db.tables.grants[typeID] = nil
    }

    func setSystemIndexes(_ encoded: String, ofType typeID: Int64) throws { db.tables.types[typeID]?.systemIndexes = encoded }

    func removeField(_ name: String, ofType typeID: Int64) throws {
        db.tables.fields = db.tables.fields.filter { !($0.value.typeID == typeID && $0.value.name == name) }
    }

    func writeField(_ field: FieldDeclaration, ofType typeID: Int64, replacing: Bool) throws {
        let spelling = field.type.isPlain ? nil : field.type.description
        let written = MemoryTables.Field(typeID: typeID, name: field.name, fieldType: field.type.storageType.description, indexes: field.indexes.rawValue,
                                         declaredType: spelling)
        if replacing {
            for (id, old) in db.tables.fields where old.typeID == typeID && old.name == field.name { db.tables.fields[id] = written }
        } else {
            _ = addField(written)
        }
    }

    func replaceGrants(_ grants: [GrantDeclaration], ofType typeID: Int64) throws {
        db.tables.grants[typeID] = grants.map { ($0.permissions.map(\.rawValue).joined(separator: ", "), $0.role) }
    }

    func replaceRoles(_ roles: Set<String>) throws { db.tables.roles = roles }

    private func addField(_ field: MemoryTables.Field) -> Int64 {
        db.tables.lastFieldID += 1
        db.tables.fields[db.tables.lastFieldID] = field
        return db.tables.lastFieldID
    }
}
