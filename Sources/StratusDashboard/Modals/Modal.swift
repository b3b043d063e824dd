import StratusEngine
import StratusModel
import StratusCloud

/// A dialog or drill-in over the tabs. The top one of ``DashboardState/modals`` gets the keys.
enum Modal: Sendable {
    case help(HelpState)
    case commandLine(CommandLineState)
    case picker(PickerState)
    case textInput(TextInputState)
    case inspector(InspectorState)
    case filterEditor(FilterEditorState)
    case form(EditFormState)
    case confirm(ConfirmState)
    case conflict(ConflictState)
    case subscriptionDraft(SubscriptionDraft)
    /// A field's values over the Query tab's result.
    case histogram(ValueHistogram)
    /// What a logged request sent and what the server answered (Enter on the Logs tab).
    case requestBodies(RequestBodiesState)
}

struct HelpState: Sendable {
    /// The key contexts of the view the help is about.
    var contexts: [KeyContext]
    var title: String
    var scroll = 0
}

struct CommandLineState: Sendable {
    var field = TextField()
    /// Completions of the word being typed, shown above the line; Tab takes the next.
    var completions: [String] = []
    var completionIndex: Int?
}

struct PickerItem: Hashable, Sendable {
    var label: String
    var detail: String
    var value: String
    var checked: Bool

    init(label: String, detail: String = "", value: String? = nil, checked: Bool = false) {
        self.label = label
        self.detail = detail
        self.value = value ?? label
        self.checked = checked
    }
}

struct PickerState: Sendable {
    /// Who opened it and what for: the choice goes back through it.
    var purpose: any PickerPurpose
    var title: String
    var items: [PickerItem]
    var list = ListCursor()
    /// Several items can be checked (Space), Enter applies all checked.
    var multiple = false

    init(purpose: any PickerPurpose, title: String, items: [PickerItem], selected: Int = 0, multiple: Bool = false) {
        self.purpose = purpose
        self.title = title
        self.items = items
        self.list = ListCursor(selected: selected)
        self.multiple = multiple
    }

    /// The item under the cursor (nil in an empty picker).
    var selectedItem: PickerItem? { items.indices.contains(list.selected) ? items[list.selected] : nil }

    /// The values of the checked items (a picker of several).
    var checkedValues: [String] { items.filter(\.checked).map(\.value) }

    /// Whether every item is checked (a picker of keys: then none is named).
    var allChecked: Bool { items.allSatisfy(\.checked) }
}

struct TextInputState: Sendable {
    /// Who opened it and what for: the text goes back through it.
    var purpose: any TextInputPurpose
    var title: String
    var hint: String
    var field: TextField
    var error: String?

    init(purpose: any TextInputPurpose, title: String, hint: String, text: String = "") {
        self.purpose = purpose
        self.title = title
        self.hint = hint
        self.field = TextField(text)
    }
}

struct InspectorState: Sendable {
    var record: Record
    var list = ListCursor()
    /// The full record is being fetched (the list may hold only the desired keys).
    var loadingJob: Int?
    /// Where the record stands with sharing (root of a share, inside one), once looked up.
    var shareNote: String?
    /// A mirrored object's relationships, once read from its zone (the Core Data lens).
    var graph: CoreDataGraph?

    init(record: Record) {
        self.record = record
    }
}

struct FormRow: Sendable {
    var name: String
    var type: FieldType
    var field: TextField
    var readOnly: Bool
    var error: String?
    /// The text it started with; unchanged rows are not written.
    var original: String
}

struct EditFormState: Sendable {
    var isNew: Bool
    /// The record as fetched (for an edit) or a fresh one (new): the save starts from it.
    var base: Record
    /// The record name for a new record (empty: a UUID).
    var nameField = TextField()
    var rows: [FormRow]
    /// Row 0 is the name (new records only); the fields follow.
    var list = ListCursor()
    var savingJob: Int?
    var error: String?
    /// What the last save sent (the conflict dialog shows it).
    var pending: Record?

    var rowOffset: Int { isNew ? 1 : 0 }
    var rowCount: Int { rows.count + rowOffset }
}

struct ConfirmState: Sendable {
    var title: String
    var message: String
    /// What `y` does, for the tab that asked.
    var action: any ConfirmAction
}

struct ConflictState: Sendable {
    /// What the form tried to save.
    var mine: Record
    /// What the store holds now.
    var server: Record
    var list = ListCursor()
    var savingJob: Int?

    /// Field names whose values differ, then those equal (marked), sorted.
    var rows: [(name: String, mine: String, server: String, differs: Bool)] {
        let names = Set(mine.fields.keys).union(server.fields.keys).sorted()
        return names.map { name in
            let left = ValueText.display(mine[name])
            let right = ValueText.display(server[name])
            return (name, left, right, mine[name] != server[name])
        }
    }
}
