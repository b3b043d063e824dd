import StratusModel
import StratusCloud

extension SchemaCatalog {
    /// One record type: its schema and its fields' row ids, and both together by field name
    /// (``fields``) for the write path, which asks for each field of every record it writes.
    package struct TypeEntry: Sendable {
        package var id: Int64
        package var schema: RecordTypeSchema {
            didSet {
                fields = TypeEntry.fields(of: schema, ids: fieldIDs)
                hasEncryptedFields = schema.fields.values.contains(where: \.isEncrypted)
            }
        }
        var fieldIDs: [String: Int64] {
            didSet { fields = TypeEntry.fields(of: schema, ids: fieldIDs) }
        }
        /// The declared fields that have a row id, by name: one lookup where a record's write
        /// made three (the schema's field, its id, and again to check its type).
        private(set) package var fields: [String: Field] {
            didSet {
                searchesEveryString = TypeEntry.searchesEveryString(fields)
                declaresAssets = TypeEntry.declaresAssets(fields)
            }
        }
        /// Every string field (and string list) is SEARCHABLE, and nothing else is: a record the
        /// type ``declares(_:)`` then has a full-text row of all its string fields' words, which an
        /// import's reading thread can make ahead (``PreparedRecord/text``).
        private(set) var searchesEveryString = false
        /// Some field is an ASSET or an asset list. A record the type ``declares(_:)`` points at
        /// no asset when none is: an import then has no asset of it to look for.
        private(set) var declaresAssets = false
        /// Some field is declared `ENCRYPTED`, which the public database refuses values of.
        private(set) var hasEncryptedFields = false

        /// What writing a value of one declared field needs to know.
        package struct Field: Sendable, Equatable {
            package var id: Int64
            var type: FieldType
            /// SEARCHABLE and a string: its words go in the full-text row.
            package var searchesText: Bool
            /// QUERYABLE or SORTABLE: its values (each list element) get `field_value` rows.
            package var indexesValues: Bool
        }

        init(id: Int64, schema: RecordTypeSchema, fieldIDs: [String: Int64]) {
            self.id = id
            self.schema = schema
            self.fieldIDs = fieldIDs
            fields = TypeEntry.fields(of: schema, ids: fieldIDs)
            searchesEveryString = TypeEntry.searchesEveryString(fields)
            declaresAssets = TypeEntry.declaresAssets(fields)
            hasEncryptedFields = schema.fields.values.contains(where: \.isEncrypted)
        }

        private static func declaresAssets(_ fields: [String: Field]) -> Bool {
            fields.values.contains { $0.type.base == .asset }
        }

        private static func searchesEveryString(_ fields: [String: Field]) -> Bool {
            fields.values.allSatisfy { $0.searchesText == ($0.type.base == .string) }
        }

        /// Whether the schema declares every one of `values`' fields with the value's type: the
        /// record then needs no schema check beyond this and adds nothing to the schema.
        func declares(_ values: [String: FieldValue]) -> Bool { TypeEntry.visitDeclared(values, in: fields) { _ in } }

        /// The field of each of `values`, in the order `values` is iterated, when `fields` (an
        /// import's reading thread holds a copy of a type's) declares them all with their
        /// values' types; nil otherwise. The writer indexing the very same dictionary, which
        /// iterates in the same order, then looks no name up again.
        static func declaredFields(of values: [String: FieldValue], in fields: [String: Field]) -> [Field]? {
            var found: [Field] = []
            found.reserveCapacity(values.count)
            return visitDeclared(values, in: fields) { found.append($0) } ? found : nil
        }

        /// Hands `body` the field of each of `values` in order; false at the first that `fields`
        /// does not declare with its value's type.
        private static func visitDeclared(_ values: [String: FieldValue], in fields: [String: Field], _ body: (Field) -> Void) -> Bool {
            for (name, value) in values {
                guard let field = fields[name], field.type == value.type else { return false }
                body(field)
            }
            return true
        }

        private static func fields(of schema: RecordTypeSchema, ids: [String: Int64]) -> [String: Field] {
            var fields: [String: Field] = [:]
            fields.reserveCapacity(schema.fields.count)
            for (name, field) in schema.fields {
                guard let id = ids[name] else { continue }
                fields[name] = Field(id: id, type: field.type, searchesText: field.isSearchable && field.type.base == .string,
                                     indexesValues: field.isQueryable || field.isSortable)
            }
            return fields
        }
    }
}
