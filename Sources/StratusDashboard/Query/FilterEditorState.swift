import StratusModel
import StratusCloud

/// The filter editor over the Query tab (or the subscription dialog): the builder's rows, the
/// format string, its arguments and the check of what is typed.
struct FilterEditorState: Sendable {
    /// Tab goes builder → text → arguments (when the text has specifiers) → builder.
    enum Focus: Hashable, Sendable { case builder, text, arguments }
    /// What applying the filter sets: the Query tab's filter (and runs it), or the predicate
    /// of the subscription being made (the dialog under the editor).
    enum Target: Hashable, Sendable { case query, subscription }
    var target: Target = .query
    var recordType: String
    var fields: [BuilderField]
    var focus: Focus = .builder
    var text: TextField
    var rows: [BuilderRow] = []
    var row = 0
    /// 0 field, 1 operator, 2 value.
    var column = 0
    /// Whether the rows show the text (false when the text is beyond the builder).
    var builderSynced = true
    var builderNote: String?
    var check: FilterCheck?
    /// Increases with every text change; a check result for an older text is dropped.
    var generation = 0
    /// Enter came before the check of this text: apply it when the check arrives (valid).
    var applyWhenChecked = false
    /// One row per format specifier of the text, in order.
    var argumentRows: [FilterArgumentRow] = []
    /// The selected argument row.
    var argumentRow = 0

    init(recordType: String, fields: [BuilderField], text: String, arguments: [String] = []) {
        self.recordType = recordType
        self.fields = fields
        self.text = TextField(text)
        self.argumentRows = FilterArgumentRow.rows(for: text, texts: arguments) ?? []
    }

    /// The typed arguments, one per specifier, as `QueryRequest` and subscriptions take them.
    var arguments: [String] { argumentRows.map(\.field.text) }

    /// The arguments to bind for a check: those before the first missing or unreadable one
    /// (the engine then places the problem on that one's specifier).
    var argumentsToCheck: [String] {
        argumentRows.prefix { !$0.isMissing && $0.error == nil }.map(\.field.text)
    }

    func field(named name: String) -> BuilderField? { fields.first { $0.name == name } }
}
