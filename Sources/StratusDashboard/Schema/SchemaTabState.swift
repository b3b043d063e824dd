import StratusEngine
import StratusCloud

/// The Schema tab: where its list stands, the schema's roles and grants, and a comparison with
/// a `.ckdb` file. The record types are the whole dashboard's (`DashboardState.recordTypes`):
/// the Query tab's pickers and the filter editor use them too.
struct SchemaTabState: Sendable {
    var list = ListCursor()
    var roles: [String] = []
    var grants: [String: [GrantDeclaration]] = [:]
    /// The comparison with a `.ckdb` file, shown instead of the schema while set.
    var diff: SchemaDiffSnapshot?
    /// The line an edit made or changed: the cursor goes there when the schema is read again.
    var select: SchemaChange.Line?

    init() {}
}
