/// A record type's schema: its custom fields and the indexes on its system fields.
///
/// The predicate checker asks it whether a key exists, what type it has and which indexes it
/// carries; the engine keeps it in step with what is saved (development) or enforces it
/// (production).
public struct RecordTypeSchema: Hashable, Sendable {
    public var name: String
    /// Custom fields by name.
    public var fields: [String: SchemaField]
    /// Indexes on the system fields, keyed by their server names (`___recordID`, `___createTime` ...).
    public var systemIndexes: [SystemField: FieldIndexes]

    public init(name: String, fields: [String: SchemaField] = [:], systemIndexes: [SystemField: FieldIndexes] = [:]) {
        self.name = name
        self.fields = fields
        self.systemIndexes = systemIndexes
    }

    /// Indexes a development environment gives the system fields of a new type.
    public static let developmentSystemIndexes: [SystemField: FieldIndexes] = [
        .recordID: [.queryable], .createTime: [.queryable, .sortable], .modTime: [.queryable, .sortable],
        .createdBy: [.queryable], .modifiedBy: [.queryable],
    ]

    /// The field a predicate key names, custom or system, with its type and indexes.
    public func field(forKey key: String) -> SchemaField? {
        if let field = fields[key] { return field }
        if let system = SystemField(key: key) {
            return SchemaField(name: system.rawValue, type: system.type, indexes: systemIndexes[system] ?? [])
        }
        return nil
    }

    /// Custom fields sorted by name, the order exports and tables use.
    public var sortedFields: [SchemaField] { fields.values.sorted { $0.name < $1.name } }
}
