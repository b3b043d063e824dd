/// One field of a record type's schema: its name, type and indexes.
public struct SchemaField: Hashable, Sendable {
    public var name: String
    public var type: FieldType
    public var indexes: FieldIndexes

    public init(name: String, type: FieldType, indexes: FieldIndexes) {
        self.name = name
        self.type = type
        self.indexes = indexes
    }

    public var isQueryable: Bool { indexes.contains(.queryable) }
    public var isSortable: Bool { indexes.contains(.sortable) }
    public var isSearchable: Bool { indexes.contains(.searchable) }
}
