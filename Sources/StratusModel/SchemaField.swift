/// One field of a record type's schema: its name, type and indexes.
public struct SchemaField: Hashable, Sendable {
    public var name: String
    public var type: FieldType
    public var indexes: FieldIndexes
    /// Declared `ENCRYPTED`: CloudKit keeps its values from queries and the public database, and
    /// Web Services carries them with `"isEncrypted": true` (Stratus keeps them as plain values).
    public var isEncrypted: Bool

    public init(name: String, type: FieldType, indexes: FieldIndexes, isEncrypted: Bool = false) {
        self.name = name
        self.type = type
        self.indexes = indexes
        self.isEncrypted = isEncrypted
    }

    /// The value type CloudKit's messages name: `ENCRYPTED_STRING`, `STRING_LIST`.
    public var valueTypeName: String {
        isEncrypted ? "ENCRYPTED_" + type.webServicesTag : type.webServicesTag
    }

    public var isQueryable: Bool { indexes.contains(.queryable) }
    public var isSortable: Bool { indexes.contains(.sortable) }
    public var isSearchable: Bool { indexes.contains(.searchable) }
}
