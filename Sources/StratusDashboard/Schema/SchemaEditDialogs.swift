import StratusCloud
import StratusEngine
import StratusModel

/// The name of a new record type (`n`) or of a new field of `recordType` (`a`), checked as it
/// is typed by the engine's schema checker, so the dialog refuses what an import would.
enum SchemaNameEntry: TextInputPurpose {
    case recordType
    case field(recordType: String)

    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        if text.isEmpty { return typing ? nil : "Type a name." }
        let candidate: RecordTypeDeclaration
        switch self {
        case .recordType:
            if state.recordTypes.contains(where: { $0.name == text }) { return "Record type \(text) already exists." }
            candidate = RecordTypeDeclaration(name: text)
        case .field(let recordType):
            if state.schema(named: recordType)?.fields[text] != nil { return "\(recordType) already has a field \(text)." }
            candidate = RecordTypeDeclaration(name: "Candidate", fields: [FieldDeclaration(name: text, type: DeclaredFieldType(.string))])
        }
        do {
            try SchemaDocument(recordTypes: [candidate]).validate()
            return nil
        } catch {
            return error.message
        }
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        switch self {
        case .recordType:
            return [SchemaTab.edit(&state, .addRecordType(text))]
        case .field(let recordType):
            let items = SchemaFieldTypePick.types.map { PickerItem(label: $0.description) }
            state.modals.append(.picker(PickerState(purpose: SchemaFieldTypePick(recordType: recordType, name: text),
                                                    title: "Type of \(recordType).\(text)", items: items)))
            return []
        }
    }
}

/// The type of a new field, from CloudKit's field types.
struct SchemaFieldTypePick: PickerPurpose {
    var recordType: String
    var name: String

    /// Each primitive type, then each as a list.
    static let types: [DeclaredFieldType] = {
        let kinds: [DeclaredFieldType.Kind] = [.string, .int64, .double, .timestamp, .reference, .asset, .location, .bytes]
        return kinds.map { DeclaredFieldType($0) } + kinds.map { DeclaredFieldType($0, isList: true) }
    }()

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem, let type = DeclaredFieldType(spelling: item.value) else { return [] }
        return [SchemaTab.edit(&state, .addField(recordType: recordType, name: name, type: type))]
    }
}

/// Adding or removing one index of a field (`I`): each option the field has or could have,
/// and why CloudKit refuses the ones its type cannot take.
struct SchemaIndexPick: PickerPurpose {
    var recordType: String
    var field: String
    var indexes: FieldIndexes

    static let options: [(FieldIndexes, String)] = [(.queryable, "QUERYABLE"), (.searchable, "SEARCHABLE"), (.sortable, "SORTABLE")]

    static func items(type: DeclaredFieldType, indexes: FieldIndexes) -> [PickerItem] {
        options.map { option, word in
            if indexes.contains(option) { return PickerItem(label: "remove \(word)", value: word) }
            return PickerItem(label: "add \(word)", detail: SchemaChange.refusal(of: option, on: type) ?? "", value: word)
        }
    }

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem, let option = Self.options.first(where: { $0.1 == item.value })?.0 else { return [] }
        var changed = indexes
        if changed.contains(option) {
            changed.remove(option)
        } else if let type = SystemField(rawValue: field)?.type ?? state.schema(named: recordType)?.fields[field]?.type,
                  let refusal = SchemaChange.refusal(of: option, on: DeclaredFieldType(type)) {
            state.status = StatusMessage("Not added: \(refusal)", kind: .error)
            return []
        } else {
            changed.insert(option)
        }
        return [SchemaTab.edit(&state, .setIndexes(recordType: recordType, field: field, indexes: changed))]
    }
}
