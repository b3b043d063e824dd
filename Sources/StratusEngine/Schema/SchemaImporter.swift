import Foundation
import StratusModel
import StratusCloud

/// Data a schema import would lose: a removed type or field that holds records, or a field
/// whose type changes while records hold it.
public struct SchemaLoss: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case removedType
        case removedField
        case changedType(from: FieldType, to: FieldType)
    }

    public var kind: Kind
    public var recordType: String
    public var field: String?
    /// How many records hold the type or field.
    public var recordCount: Int

    public var description: String {
        let records = recordCount == 1 ? "1 record holds" : "\(recordCount) records hold"
        switch kind {
        case .removedType:
            return "record type \(recordType) would be removed, but \(records) it"
        case .removedField:
            return "field \(recordType).\(field ?? "") would be removed, but \(records) a value"
        case .changedType(let from, let to):
            return "field \(recordType).\(field ?? "") would change type from \(from) to \(to), but \(records) a value"
        }
    }
}

/// What a schema import changed.
public struct SchemaImportResult: Hashable, Sendable {
    public var addedTypes: [String] = []
    public var removedTypes: [String] = []
    /// Fields as `Type.field`.
    public var addedFields: [String] = []
    public var removedFields: [String] = []
    public var retypedFields: [String] = []
    /// Fields whose QUERYABLE / SORTABLE / SEARCHABLE options changed (their index rows were rebuilt).
    public var reindexedFields: [String] = []
    /// Records whose index rows were rewritten.
    public var rebuiltRecords = 0
    /// Records deleted with their removed type (forced imports).
    public var deletedRecords = 0
    /// Records that lost removed or retyped fields (forced imports).
    public var strippedRecords = 0
    /// The data a forced import deleted.
    public var losses: [SchemaLoss] = []
    public var environment: StoreEnvironment = .development

    /// One line per change, for people.
    public var summary: [String] {
        var lines: [String] = []
        func add(_ label: String, _ items: [String]) { if !items.isEmpty { lines.append("\(label): \(items.joined(separator: ", "))") } }
        add("added types", addedTypes)
        add("removed types", removedTypes)
        add("added fields", addedFields)
        add("removed fields", removedFields)
        add("retyped fields", retypedFields)
        add("re-indexed fields", reindexedFields)
        if rebuiltRecords > 0 { lines.append("rebuilt the index rows of \(rebuiltRecords) records") }
        if deletedRecords > 0 { lines.append("deleted \(deletedRecords) records") }
        if strippedRecords > 0 { lines.append("removed fields from \(strippedRecords) records") }
        return lines
    }
}

/// Applies a `SchemaDocument` to a store in one transaction: works out what changes, refuses
/// losses unless forced (development only), writes the schema tables, rebuilds index rows.
struct SchemaImporter {
    let store: Store
    let db: StoreTransaction
    let document: SchemaDocument
    let catalog: SchemaCatalog

    /// The plan for one record type present before and after.
    private struct FieldPlan {
        var removed: [String] = []
        var retyped: [String: (FieldType, FieldType)] = [:]
        var reindexed: [String] = []
        var updated: [FieldDeclaration] = []
        var added: [FieldDeclaration] = []
    }

    /// The document's types, with `Users` given its implicit `roles` field when declared without it.
    private var declaredTypes: [RecordTypeDeclaration] {
        document.recordTypes.map { type in
            guard type.name == "Users", !type.fields.contains(where: { $0.name == "roles" }) else { return type }
            var copy = type
            copy.fields.append(FieldDeclaration(name: "roles", type: DeclaredFieldType(.list(.int64))))
            return copy
        }
    }

    private func declaredSpellings() throws -> [Int64: [String: String]] {
        try db.schema.declaredSpellings()
    }

    private func recordCount(ofType typeID: Int64) throws -> Int {
        try db.records.count(ofType: typeID)
    }

    /// How many records of a type hold each of `fields`.
    private func holders(ofType typeID: Int64, fields: Set<String>) throws -> [String: Int] {
        guard !fields.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for id in try db.records.ids(ofType: typeID) {
            guard let stored = try db.records.find(id: id) else { continue }
            for name in try stored.fields().keys where fields.contains(name) { counts[name, default: 0] += 1 }
        }
        return counts
    }

    func run(environment: StoreEnvironment?, force: Bool, dryRun: Bool) throws -> SchemaImportResult {
        let current = try db.schema.storeInfo()?.environment ?? .development
        if current == .production, environment == .development {
            throw CloudKitError(.invalidArguments, "This store is a production store; a schema import cannot make it a development store again.")
        }
        do {
            try document.validate()
        } catch {
            throw CloudKitError(.invalidArguments, "The schema is not valid: \(error.message)")
        }
        var result = SchemaImportResult()
        result.environment = environment ?? current
        let declared = declaredTypes
        let declaredByName = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let spellings = try declaredSpellings()

        // What changes, and what it would lose.
        var removedTypes: [SchemaCatalog.TypeEntry] = []
        var plans: [String: FieldPlan] = [:]
        var losses: [SchemaLoss] = []
        var dropping: [String: Set<String>] = [:]
        for entry in catalog.types.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            let name = entry.schema.name
            guard let type = declaredByName[name] else {
                if name == "Users" { continue } // implicit; left as it is when the document omits it
                removedTypes.append(entry)
                let count = try recordCount(ofType: entry.id)
                if count > 0 { losses.append(SchemaLoss(kind: .removedType, recordType: name, recordCount: count)) }
                continue
            }
            var plan = FieldPlan()
            let wanted = Dictionary(type.customFields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for field in entry.schema.sortedFields {
                guard let declaredField = wanted[field.name] else { plan.removed.append(field.name); continue }
                let newType = declaredField.type.storageType
                if newType != field.type {
                    plan.retyped[field.name] = (field.type, newType)
                    plan.updated.append(declaredField)
                } else if declaredField.indexes != field.indexes || declaredField.type.description != (spellings[entry.id]?[field.name] ?? field.type.description) {
                    if declaredField.indexes != field.indexes { plan.reindexed.append(field.name) }
                    plan.updated.append(declaredField)
                }
            }
            plan.added = type.customFields.filter { entry.schema.fields[$0.name] == nil }.sorted { $0.name < $1.name }
            let counts = try holders(ofType: entry.id, fields: Set(plan.removed).union(plan.retyped.keys))
            for field in plan.removed {
                if let count = counts[field] {
                    losses.append(SchemaLoss(kind: .removedField, recordType: name, field: field, recordCount: count))
                    dropping[name, default: []].insert(field)
                }
            }
            for (field, change) in plan.retyped.sorted(by: { $0.key < $1.key }) {
                if let count = counts[field] {
                    losses.append(SchemaLoss(kind: .changedType(from: change.0, to: change.1), recordType: name, field: field, recordCount: count))
                    dropping[name, default: []].insert(field)
                }
            }
            plans[name] = plan
        }
        if !losses.isEmpty {
            let list = losses.map { "\n  - \($0)" }.joined()
            guard force, current == .development else {
                let advice = current == .development
                    ? "Nothing was changed. A forced import deletes that data (development stores only)."
                    : "Nothing was changed. A production store's schema can only grow without losing data."
                throw CloudKitError(.invalidArguments, "Importing this schema would lose data:\(list)\n\(advice)",
                                    reason: .schemaImportLosesData(forceAllowed: current == .development))
            }
            result.losses = losses
        }

        result.removedTypes = removedTypes.map(\.schema.name)
        result.addedTypes = declared.map(\.name).filter { catalog.type(named: $0) == nil }.sorted()
        for (name, plan) in plans.sorted(by: { $0.key < $1.key }) {
            result.removedFields += plan.removed.map { "\(name).\($0)" }
            result.retypedFields += plan.retyped.keys.sorted().map { "\(name).\($0)" }
            result.reindexedFields += plan.reindexed.map { "\(name).\($0)" }
            result.addedFields += plan.added.map { "\(name).\($0.name)" }
        }
        for name in result.addedTypes {
            result.addedFields += (declaredByName[name]?.customFields ?? []).map { "\(name).\($0.name)" }.sorted()
        }
        if dryRun { return result }

        // The schema tables.
        var updated = catalog
        for entry in removedTypes {
            try db.schema.retireType(entry.id)
        }
        for type in declared {
            let typeID: Int64
            if let entry = catalog.type(named: type.name) {
                typeID = entry.id
                try db.schema.setSystemIndexes(SchemaCatalog.encodeSystemIndexes(type.systemIndexes), ofType: typeID)
                let plan = plans[type.name] ?? FieldPlan()
                for field in plan.removed { try db.schema.removeField(field, ofType: typeID) }
                for field in plan.updated { try db.schema.writeField(field, ofType: typeID, replacing: true) }
                for field in plan.added { try db.schema.writeField(field, ofType: typeID, replacing: false) }
            } else {
                typeID = try updated.addType(type.name, systemIndexes: type.systemIndexes, in: db).id
                for field in type.customFields { try db.schema.writeField(field, ofType: typeID, replacing: false) }
            }
            try db.schema.replaceGrants(type.grants, ofType: typeID)
        }
        try db.schema.replaceRoles(Set(document.roles))
        if let environment, environment != current { try db.schema.setEnvironment(environment) }

        // The records: index rows under the new options, forced losses.
        updated = try SchemaCatalog.load(db, version: catalog.version)
        var rebuilder = IndexRebuilder(store: store, db: db)
        for entry in removedTypes { try rebuilder.deleteRecords(of: entry, catalog: catalog) }
        for (name, plan) in plans.sorted(by: { $0.key < $1.key }) {
            let drop = dropping[name] ?? []
            guard !plan.reindexed.isEmpty || !drop.isEmpty, let old = catalog.type(named: name), let new = updated.type(named: name) else { continue }
            try rebuilder.rebuild(from: old, to: new, dropping: drop)
        }
        try rebuilder.finish()
        result.rebuiltRecords = rebuilder.rebuiltRecords
        result.deletedRecords = rebuilder.deletedRecords
        result.strippedRecords = rebuilder.strippedRecords
        try store.schemaChanged(db, catalog: &updated)
        return result
    }

    /// The store's schema as a document, in the order exports print it.
    static func export(_ db: StoreTransaction, catalog: SchemaCatalog) throws -> SchemaDocument {
        let spellings = try db.schema.declaredSpellings()
        let grants = catalog.grants
        var document = SchemaDocument(roles: try db.schema.declaredRoles())
        for entry in catalog.types.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            var type = RecordTypeDeclaration(name: entry.schema.name, grants: grants[entry.id] ?? [])
            type.fields = SchemaWriter.systemFields.map { system in
                FieldDeclaration(name: system.rawValue, type: DeclaredFieldType(system.type), indexes: entry.schema.systemIndexes[system] ?? [])
            }
            for field in entry.schema.sortedFields {
                let spelling = spellings[entry.id]?[field.name].flatMap(DeclaredFieldType.init(spelling:)) ?? DeclaredFieldType(field.type)
                type.fields.append(FieldDeclaration(name: field.name, type: spelling, indexes: field.indexes))
            }
            document.recordTypes.append(type)
        }
        return document
    }
}
