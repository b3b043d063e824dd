import StratusCloud
import StratusEngine
import StratusModel

/// One edit of the development schema from the Schema tab. Each is applied to the store's
/// exported document and the whole document imported, as `stratus schema import` does: there is
/// one way a schema changes, and the engine's schema checker judges every edit.
enum SchemaChange: Hashable, Sendable {
    case addRecordType(String)
    case addField(recordType: String, name: String, type: DeclaredFieldType)
    case setIndexes(recordType: String, field: String, indexes: FieldIndexes)

    /// The document with this change made.
    ///
    /// - Throws: `invalidArguments` naming the problem: a type or field that is missing or
    ///   already there, or an index CloudKit refuses for the field's type.
    func applied(to document: SchemaDocument) throws(CloudKitError) -> SchemaDocument {
        var document = document
        switch self {
        case .addRecordType(let name):
            guard document.recordType(named: name) == nil else { throw CloudKitError(.invalidArguments, "Record type \(name) already exists.") }
            document.recordTypes.append(RecordTypeDeclaration(name: name))
        case .addField(let typeName, let name, let type):
            let index = try typeIndex(typeName, in: document)
            guard !document.recordTypes[index].fields.contains(where: { $0.name == name }) else {
                throw CloudKitError(.invalidArguments, "Record type \(typeName) already has a field \(name).")
            }
            document.recordTypes[index].fields.append(FieldDeclaration(name: name, type: type))
        case .setIndexes(let typeName, let name, let indexes):
            let index = try typeIndex(typeName, in: document)
            if let system = SystemField(rawValue: name), system.isImplicitSchemaField,
               !document.recordTypes[index].fields.contains(where: { $0.name == name }) {
                // An implicit field is listed only to give it options.
                document.recordTypes[index].fields.append(FieldDeclaration(name: name, type: DeclaredFieldType(system.type)))
            }
            guard let fieldIndex = document.recordTypes[index].fields.firstIndex(where: { $0.name == name }) else {
                throw CloudKitError(.invalidArguments, "Record type \(typeName) has no field \(name) in its schema.")
            }
            let field = document.recordTypes[index].fields[fieldIndex]
            // Only what is added is judged: an index the store already gave the field (saving
            // in development infers them) can always be removed.
            for option in [FieldIndexes.queryable, .searchable, .sortable] where indexes.contains(option) && !field.indexes.contains(option) {
                if let refusal = Self.refusal(of: option, on: field.type) { throw CloudKitError(.invalidArguments, refusal) }
            }
            document.recordTypes[index].fields[fieldIndex].indexes = indexes
        }
        do {
            try document.validate()
        } catch {
            throw CloudKitError(.invalidArguments, error.message)
        }
        return document
    }

    /// Why CloudKit refuses the index `option` on a field of `type`; nil when it takes it.
    static func refusal(of option: FieldIndexes, on type: DeclaredFieldType) -> String? {
        if type.isEncrypted { return "\(type) fields are encrypted: CloudKit indexes no encrypted field." }
        if type.kind == .asset { return "\(type) fields cannot be indexed: CloudKit indexes no asset." }
        if option == .searchable, type.storageType.base != .string { return "Only STRING fields can be SEARCHABLE; this one is \(type)." }
        if option == .sortable, type.isList { return "A list cannot be SORTABLE; this one is \(type)." }
        return nil
    }

    /// What the status line says once the change is made.
    var done: String {
        switch self {
        case .addRecordType(let name): return "Added record type \(name)."
        case .addField(let type, let name, let fieldType): return "Added field \(type).\(name) (\(fieldType))."
        case .setIndexes(let type, let name, let indexes):
            let shown = SystemField(rawValue: name)?.predicateKey ?? name
            return indexes.isEmpty ? "\(type).\(shown) has no indexes now." : "\(type).\(shown) is \(indexes) now."
        }
    }

    /// A line of the Schema tab: a type's heading (`field` nil) or one of its fields.
    struct Line: Hashable, Sendable {
        var recordType: String
        var field: String?
    }

    /// The line this change makes or changes (a system field by its predicate key, as listed).
    var line: Line {
        switch self {
        case .addRecordType(let name): return Line(recordType: name, field: nil)
        case .addField(let type, let name, _): return Line(recordType: type, field: name)
        case .setIndexes(let type, let name, _): return Line(recordType: type, field: SystemField(rawValue: name)?.predicateKey ?? name)
        }
    }

    private func typeIndex(_ name: String, in document: SchemaDocument) throws(CloudKitError) -> Int {
        guard let index = document.recordTypes.firstIndex(where: { $0.name == name }) else {
            throw CloudKitError(.invalidArguments, "Record type \(name) is not in the schema.")
        }
        return index
    }
}
