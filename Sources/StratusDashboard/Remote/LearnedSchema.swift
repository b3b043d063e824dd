import StratusCloud
import StratusModel

/// A remote's record types as its records show them: CloudKit Web Services has no schema
/// endpoint, so the Query tab's columns, filter builder and sort picker learn each type's
/// fields from the records a query reads. What the server indexes is not known here: its own
/// refusal says so when a filter needs an index it lacks.
enum LearnedSchema {
    /// The field types learned of `recordType`, for the filter check on a remote (empty on a
    /// local store, whose schema the check reads itself).
    static func types(of recordType: String, in state: DashboardState) -> [String: FieldType] {
        guard state.remote != nil else { return [:] }
        return state.schema(named: recordType)?.fields.mapValues(\.type) ?? [:]
    }

    /// Adds the fields of `records` (their types as their values say) to `state.recordTypes`.
    static func learn(from records: [Record], into state: inout DashboardState) {
        for record in records {
            var schema = state.schema(named: record.recordType)
                ?? RecordTypeSchema(name: record.recordType, systemIndexes: RecordTypeSchema.developmentSystemIndexes)
            var grew = false
            for (name, value) in record.fields where schema.fields[name] == nil {
                schema.fields[name] = SchemaField(name: name, type: value.type, indexes: [.queryable, .sortable])
                grew = true
            }
            guard grew || state.schema(named: record.recordType) == nil else { continue }
            state.recordTypes.removeAll { $0.name == schema.name }
            state.recordTypes.append(schema)
            state.recordTypes.sort { $0.name < $1.name }
        }
    }
}
