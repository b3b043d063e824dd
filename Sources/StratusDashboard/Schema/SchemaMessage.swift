import StratusCloud

/// The schema as read, and what the Schema tab's export and diff report back.
enum SchemaMessage: Sendable {
    /// The schema and environment (every tab reads the record types; the Schema tab shows them).
    case loaded(job: Int, Result<SchemaSnapshot, CloudKitError>)
    case exported(job: Int, Result<String, CloudKitError>)
    case diffed(job: Int, Result<SchemaDiffSnapshot, CloudKitError>)
}
