import StratusModel
import StratusCloud

/// The rules a syntactically valid schema must also follow: names, the implicit system
/// fields, options each type can carry, and roles that grants name.
struct SchemaChecker {
    let document: SchemaDocument
    let positions: SchemaPositions?

    private func fail(_ message: String, at point: SchemaPositions.Point?) -> SchemaLanguageError {
        .rule(message, line: point?.line ?? 0, column: point?.column ?? 0)
    }

    func check() throws(SchemaLanguageError) {
        var roles: Set<String> = []
        for (index, role) in document.roles.enumerated() {
            let point = positions?.roles[index]
            if role.hasPrefix("_") {
                throw fail("Role \"\(role)\" cannot be created: names starting with '_' belong to CloudKit's own roles (\"_creator\", \"_world\", \"_icloud\")", at: point)
            }
            guard roles.insert(role).inserted else { throw fail("Role \(SchemaWriter.name(role)) is created twice", at: point) }
        }
        var typeNames: Set<String> = []
        for (typeIndex, type) in document.recordTypes.enumerated() {
            let typePositions = positions?.types[typeIndex]
            if !ShareRecordType.isShareType(type.name), let problem = RecordValidator.identifierProblem(type.name, what: "record type name") {
                throw fail(String(problem.dropLast()), at: typePositions?.name)
            }
            guard typeNames.insert(type.name).inserted else {
                throw fail("Record type \(type.name) is declared twice", at: typePositions?.name)
            }
            var fieldNames: Set<String> = []
            for (fieldIndex, field) in type.fields.enumerated() {
                let namePoint = typePositions?.fieldNames[fieldIndex]
                let typePoint = typePositions?.fieldTypes[fieldIndex]
                guard fieldNames.insert(field.name).inserted else {
                    throw fail("Field \(SchemaWriter.name(field.name)) is declared twice in record type \(type.name)", at: namePoint)
                }
                if ShareRecordType.isShareType(type.name), let shareField = ShareRecordType.systemFields[field.name] {
                    guard field.type == DeclaredFieldType(shareField) else {
                        throw fail("Field \(SchemaWriter.name(field.name)) of record type \(SchemaWriter.name(type.name)) is \(shareField) in every container and cannot be declared as \(field.type)", at: typePoint)
                    }
                }
                try checkField(field, in: type.name, namePoint: namePoint, typePoint: typePoint)
            }
            for (grantIndex, grant) in type.grants.enumerated() {
                guard SchemaDocument.implicitRoles.contains(grant.role) || roles.contains(grant.role) else {
                    throw fail("GRANT in record type \(type.name) names role \(SchemaWriter.name(grant.role)), which is neither created with CREATE ROLE nor one of \"_creator\", \"_world\", \"_icloud\"",
                               at: typePositions?.grantRoles[grantIndex])
                }
            }
        }
    }

    private func checkField(_ field: FieldDeclaration, in typeName: String, namePoint: SchemaPositions.Point?, typePoint: SchemaPositions.Point?) throws(SchemaLanguageError) {
        let shownName = SchemaWriter.name(field.name)
        if field.isSystem {
            guard let system = SystemField(rawValue: field.name), system.isImplicitSchemaField else {
                throw fail("Field \(shownName) starts with '_', which is reserved for the system fields \"___createTime\", \"___createdBy\", \"___etag\", \"___modTime\", \"___modifiedBy\" and \"___recordID\"", at: namePoint)
            }
            guard field.type == DeclaredFieldType(system.type) else {
                throw fail("System field \(shownName) has type \(system.type) and cannot be declared as \(field.type)", at: typePoint)
            }
        } else if !(ShareRecordType.isShareType(typeName) && ShareRecordType.systemFields[field.name] != nil),
                  let problem = RecordValidator.identifierProblem(field.name, what: "field name") {
            throw fail(String(problem.dropLast()), at: namePoint)
        }
        if typeName == "Users", field.name == "roles", field.type != DeclaredFieldType(.list(.int64)) {
            throw fail("Field roles of record type Users is LIST<INT64> in every container and cannot be declared as \(field.type)", at: typePoint)
        }
        let storage = field.type.storageType
        if !field.indexes.isEmpty {
            if field.type.isEncrypted {
                throw fail("Field \(shownName) is \(field.type): encrypted fields cannot be QUERYABLE, SORTABLE or SEARCHABLE", at: typePoint)
            }
            // CloudKit's development schema gives BYTES fields QUERYABLE SORTABLE (Core Data
            // mirroring writes them so) and exports them that way; the options are kept, though
            // no query can compare bytes. Assets take no options.
            if storage.base == .asset {
                throw fail("Field \(shownName) is \(field.type), which cannot be indexed: remove \(field.indexes)", at: typePoint)
            }
            if field.indexes.contains(.searchable), storage.base != .string {
                throw fail("Field \(shownName) is \(field.type): only STRING fields can be SEARCHABLE", at: typePoint)
            }
        }
    }
}
