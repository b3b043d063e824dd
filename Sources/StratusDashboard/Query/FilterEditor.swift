import Foundation
import StratusModel
import StratusTerminal

/// The filter editor (`f`) over the Query tab or a subscription: the text, the builder rows
/// and the arguments, checked off the UI thread as they change.
enum FilterEditor {
    static func key(_ state: inout DashboardState, _ editor: FilterEditorState, key: Key, action: KeyAction?) -> [Effect] {
        var editor = editor
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .switchFocus?, .previousField?:
            var order: [FilterEditorState.Focus] = [.builder, .text]
            if !editor.argumentRows.isEmpty { order.append(.arguments) }
            let index = order.firstIndex(of: editor.focus) ?? 0
            editor.focus = order[(index + (action == .switchFocus ? 1 : order.count - 1)) % order.count]
            state.topModal = .filterEditor(editor)
            return []
        case .apply?:
            return applyFilter(&state, editor)
        case .copy?:
            guard let web = editor.check?.ckws else {
                state.status = StatusMessage("No Web Services form of this filter yet: it must be valid first.", kind: .error)
                return []
            }
            return Dashboard.copy(&state, web, what: "the query's CKWS JSON")
        case .recentFilters?:
            let recent = state.preferences.recentFilters[editor.recordType] ?? []
            guard !recent.isEmpty else {
                state.status = StatusMessage("No recent filters for \(editor.recordType) yet.")
                return []
            }
            let items = recent.enumerated().map { index, filter in
                PickerItem(label: filter.text, detail: filter.arguments.joined(separator: ", "), value: "\(index)")
            }
            state.modals.append(.picker(PickerState(purpose: FilterEditorPick.recentFilter, title: "Recent filters for \(editor.recordType)", items: items)))
            return []
        default:
            break
        }
        if editor.focus == .text {
            guard editor.text.handle(key) else { return [] }
            state.topModal = .filterEditor(editor)
            return filterTextChanged(&state)
        }
        if editor.focus == .arguments {
            return argumentKey(&state, editor, key: key, action: action)
        }
        // Builder
        if !editor.builderSynced, action == .addCondition || action == .deleteCondition || action == .editCell {
            state.status = StatusMessage("The builder can't show this filter (\(editor.builderNote ?? "")); edit it as text (Tab), or clear the text.", kind: .error)
            return []
        }
        switch action {
        case .up?: editor.row = max(0, editor.row - 1)
        case .down?: editor.row = min(max(0, editor.rows.count - 1), editor.row + 1)
        case .left?: editor.column = max(0, editor.column - 1)
        case .right?: editor.column = min(2, editor.column + 1)
        case .addCondition?:
            guard let field = editor.fields.first else {
                state.status = StatusMessage("\(editor.recordType) has no field with an index to filter on.", kind: .error)
                return []
            }
            editor.rows.append(BuilderRow(field: field.name, op: FilterOperator.allowed(for: field).first ?? .equals, value: ""))
            editor.row = editor.rows.count - 1
            editor.column = 0
            state.topModal = .filterEditor(editor)
            openBuilderPicker(&state, editor, column: 0)
            return builderChanged(&state)
        case .deleteCondition?:
            guard editor.rows.indices.contains(editor.row) else { return [] }
            editor.rows.remove(at: editor.row)
            editor.row = max(0, min(editor.row, editor.rows.count - 1))
            state.topModal = .filterEditor(editor)
            return builderChanged(&state)
        case .editCell?:
            guard editor.rows.indices.contains(editor.row) else {
                return FilterEditor.key(&state, editor, key: .char("a"), action: .addCondition)
            }
            openBuilderPicker(&state, editor, column: editor.column)
            return []
        default:
            break
        }
        state.topModal = .filterEditor(editor)
        return []
    }

    static func openBuilderPicker(_ state: inout DashboardState, _ editor: FilterEditorState, column: Int) {
        let row = editor.rows[editor.row]
        switch column {
        case 0:
            let items = editor.fields.map { field in
                PickerItem(label: field.name, detail: field.name == "self" ? "full-text tokens" : "\(field.type) \(field.indexes)")
            }
            let selected = editor.fields.firstIndex { $0.name == row.field } ?? 0
            state.modals.append(.picker(PickerState(purpose: FilterEditorPick.field(row: editor.row), title: "Field", items: items, selected: selected)))
        case 1:
            guard let field = editor.field(named: row.field) else { return }
            let ops = FilterOperator.allowed(for: field)
            let items = ops.map { PickerItem(label: $0.label, value: $0.rawValue) }
            state.modals.append(.picker(PickerState(purpose: FilterEditorPick.operator(row: editor.row), title: "Operator for \(row.field)",
                                                    items: items, selected: ops.firstIndex(of: row.op) ?? 0)))
        default:
            let type = editor.field(named: row.field)?.type ?? .string
            state.modals.append(.textInput(TextInputState(purpose: FilterValueEntry(row: editor.row), title: "Value for \(row.field) \(row.op.label)",
                                                          hint: row.op.valueHint(for: type), text: row.value)))
        }
    }

    /// Keys of the Arguments area: ↑↓ choose the row, the rest edit it (checked as typed).
    static func argumentKey(_ state: inout DashboardState, _ editor: FilterEditorState, key: Key, action: KeyAction?) -> [Effect] {
        var editor = editor
        guard editor.argumentRows.indices.contains(editor.argumentRow) else { return [] }
        switch action {
        case .up?:
            editor.argumentRow = max(0, editor.argumentRow - 1)
        case .down?:
            editor.argumentRow = min(editor.argumentRows.count - 1, editor.argumentRow + 1)
        default:
            guard editor.argumentRows[editor.argumentRow].field.handle(key) else { return [] }
            return checkFilter(&state, editor)
        }
        state.topModal = .filterEditor(editor)
        return []
    }

    /// Stores the editor and asks for a check of its text, bound to the arguments typed so
    /// far (a result for an older generation is dropped).
    static func checkFilter(_ state: inout DashboardState, _ editor: FilterEditorState) -> [Effect] {
        var editor = editor
        editor.generation += 1
        editor.check = nil
        // The text Enter was pressed on has changed: nothing is applied behind the typing.
        editor.applyWhenChecked = false
        state.topModal = .filterEditor(editor)
        return [.query(.checkFilter(generation: editor.generation, filter: editor.text.text, arguments: editor.argumentsToCheck,
                                    recordType: editor.recordType, learnedTypes: LearnedSchema.types(of: editor.recordType, in: state)))]
    }

    /// One argument row per specifier of the new text, keeping what was typed by position.
    static func syncArgumentRows(_ editor: inout FilterEditorState) {
        guard let rows = FilterArgumentRow.rows(for: editor.text.text, previous: editor.argumentRows) else { return }
        editor.argumentRows = rows
        editor.argumentRow = min(editor.argumentRow, max(0, rows.count - 1))
        if rows.isEmpty, editor.focus == .arguments { editor.focus = .text }
    }

    /// The builder changed: write its text and check it.
    static func builderChanged(_ state: inout DashboardState) -> [Effect] {
        guard case .filterEditor(var editor)? = state.topModal else { return [] }
        editor.text.set(FilterBuilder.text(for: editor.rows, fields: editor.fields))
        editor.builderSynced = true
        editor.builderNote = nil
        syncArgumentRows(&editor)
        return checkFilter(&state, editor)
    }

    /// The text changed: bring the builder in line when it can show the text, and check it.
    static func filterTextChanged(_ state: inout DashboardState, focusText: Bool = true) -> [Effect] {
        guard case .filterEditor(var editor)? = state.topModal else { return [] }
        switch FilterBuilder.rows(from: editor.text.text, fields: editor.fields) {
        case .success(let rows):
            editor.rows = rows
            editor.builderSynced = true
            editor.builderNote = nil
            editor.row = min(editor.row, max(0, rows.count - 1))
        case .failure(let error):
            editor.builderSynced = false
            editor.builderNote = error.message
        }
        if !focusText, !editor.builderSynced { editor.focus = .text }
        syncArgumentRows(&editor)
        return checkFilter(&state, editor)
    }

    static func applyFilter(_ state: inout DashboardState, _ editor: FilterEditorState) -> [Effect] {
        let text = editor.text.text.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty || editor.target == .subscription {
            guard let check = editor.check else {
                // The check runs off the UI thread; a paste and Enter come faster than it.
                var waiting = editor
                waiting.applyWhenChecked = true
                state.topModal = .filterEditor(waiting)
                state.status = StatusMessage("Checking the filter; it applies when the check passes.")
                return []
            }
            guard check.isValid else {
                let problem = check.problems.first?.message ?? "invalid filter"
                state.status = StatusMessage("Not applied: \(problem)", kind: .error)
                return []
            }
        }
        state.topModal = nil
        // A message about an earlier try (a refused filter, the wait for a check) ends here.
        state.status = nil
        if editor.target == .subscription {
            SubscriptionsTab.draftPredicateApplied(&state, text: text, arguments: editor.arguments)
            return []
        }
        state.query.filter = text
        state.query.arguments = editor.arguments
        var effects: [Effect] = []
        if !text.isEmpty {
            state.preferences.remember(filter: text, arguments: editor.arguments, for: editor.recordType)
            effects.append(.savePreferences(state.preferences))
        }
        return effects + QueryTab.runQuery(&state)
    }

    /// The check of the editor's text came back: shown when the text is still the one checked
    /// (a check of older text is dropped), and the filter applied when Enter waited for it.
    static func filterChecked(_ state: inout DashboardState, generation: Int, _ check: FilterCheck) -> [Effect] {
        guard case .filterEditor(var editor)? = state.modals.last(where: { if case .filterEditor = $0 { return true }; return false }),
              editor.generation == generation else { return [] }
        editor.check = FilterArgumentRow.explain(check, rows: editor.argumentRows)
        if editor.applyWhenChecked, case .filterEditor? = state.topModal {
            editor.applyWhenChecked = false
            return applyFilter(&state, editor)
        }
        replaceFilterEditor(&state, editor)
        return []
    }

    static func replaceFilterEditor(_ state: inout DashboardState, _ editor: FilterEditorState) {
        guard let index = state.modals.lastIndex(where: { if case .filterEditor = $0 { return true }; return false }) else { return }
        state.modals[index] = .filterEditor(editor)
    }
}
