import StratusCloud
import StratusEngine
import StratusModel

/// The schema as read, and what the Schema tab's export and diff report back.
enum SchemaMessage: Sendable {
    /// The schema and environment (every tab reads the record types; the Schema tab shows them).
    case loaded(job: Int, Result<SchemaSnapshot, CloudKitError>)
    case exported(job: Int, Result<String, CloudKitError>)
    case diffed(job: Int, Result<SchemaDiffSnapshot, CloudKitError>)
    /// An edit or import was made; the text says what changed.
    case changed(job: Int, Result<String, CloudKitError>)
    /// What importing the file at `path` would change (a line per kind of change; none when the
    /// store's schema is already that).
    case previewed(job: Int, path: String, Result<[String], CloudKitError>)
}

/// The schema and environment, read together.
struct SchemaSnapshot: Sendable {
    var types: [RecordTypeSchema]
    var environment: StoreEnvironment
    /// The roles the schema declares (`CREATE ROLE`).
    var roles: [String]
    /// Each record type's `GRANT` entries.
    var grants: [String: [GrantDeclaration]]
    /// The store can only be read (a local store on a read-only file or file system).
    var isReadOnly: Bool

    init(types: [RecordTypeSchema], environment: StoreEnvironment, roles: [String] = [], grants: [String: [GrantDeclaration]] = [:],
         isReadOnly: Bool = false) {
        self.types = types
        self.environment = environment
        self.roles = roles
        self.grants = grants
        self.isReadOnly = isReadOnly
    }
}
