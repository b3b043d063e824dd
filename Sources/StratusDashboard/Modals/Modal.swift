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

enum PickerPurpose: Hashable, Sendable {
    case recordType, sort, fields, pageSize, zone, database, user, theme
    case builderField(row: Int), builderOperator(row: Int), recentFilter
    case fetchKeys, changesKeys, changesPageSize, changesOrder, bookmark
    case subscriptionKind, subscriptionType, subscriptionFiresOn, subscriptionKeys, subscriptionZone
    /// Who to invite to the share with this URL; then with what permission.
    case shareParticipant(url: String), sharePermission(url: String, user: String)
    /// The kind of a new fault; then its options. Where to compact the zone's history.
    case faultKind, compactPoint
    /// The field whose values the histogram shows.
    case histogramField
}

struct PickerState: Sendable {
    var purpose: PickerPurpose
    var title: String
    var items: [PickerItem]
    var list = ListCursor()
    /// Several items can be checked (Space), Enter applies all checked.
    var multiple = false

    init(purpose: PickerPurpose, title: String, items: [PickerItem], selected: Int = 0, multiple: Bool = false) {
        self.purpose = purpose
        self.title = title
        self.items = items
        self.list = ListCursor(selected: selected)
        self.multiple = multiple
    }
}

enum TextInputPurpose: Hashable, Sendable {
    case fetchNames, changesToken, databaseToken, search, builderValue(row: Int)
    case subscriptionID, schemaExportPath, schemaDiffPath
    /// The name of a custom zone to make in the current database.
    case newZone
    /// The point a LOCATION field's distance is measured from, for the Query tab's sort.
    case sortDistance(field: String, ascending: Bool)
    /// The options of a new fault of this kind, in the command line's words.
    case faultOptions(FaultKind)
    /// The file the current result is exported to.
    case exportPath
}

struct TextInputState: Sendable {
    var purpose: TextInputPurpose
    var title: String
    var hint: String
    var field: TextField
    var error: String?

    init(purpose: TextInputPurpose, title: String, hint: String, text: String = "") {
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

enum ConfirmAction: Hashable, Sendable {
    case deleteRecord(RecordID, recordType: String)
    case deleteSubscription(String)
    /// A custom zone (the dialog says how many records it holds).
    case deleteZone(ZoneID)
    /// Take a participant (user record name, alias) out of the share with this URL.
    case removeParticipant(url: String, user: String, alias: String)
    /// Remove a fault from the plan (nil: all of them).
    case removeFault(Int64?)
    /// Drop the zone's history before a token, or keep the newest N changes.
    case compactHistory(ZoneID, before: String?, keep: Int?)
    /// Delete every record the Query tab's filter matches (this many, when counted).
    case bulkDelete(count: Int)
    case quit
}

struct ConfirmState: Sendable {
    var title: String
    var message: String
    var action: ConfirmAction
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
