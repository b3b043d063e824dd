/// The filter editor's pickers: a builder row's field or operator, a recent filter.
enum FilterEditorPick: PickerPurpose {
    case field(row: Int), `operator`(row: Int), recentFilter

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem, case .filterEditor(var editor)? = state.topModal else { return [] }
        switch self {
        case .field(let row):
            guard editor.rows.indices.contains(row), let field = editor.field(named: item.value) else { return [] }
            editor.rows[row].field = item.value
            let allowed = FilterOperator.allowed(for: field)
            if !allowed.contains(editor.rows[row].op) { editor.rows[row].op = allowed.first ?? .equals }
            editor.column = 1
        case .operator(let row):
            guard editor.rows.indices.contains(row), let op = FilterOperator(rawValue: item.value) else { return [] }
            editor.rows[row].op = op
            editor.column = 2
        case .recentFilter:
            guard let index = Int(item.value), let recent = state.preferences.recentFilters[editor.recordType],
                  recent.indices.contains(index) else { return [] }
            editor.text.set(recent[index].text)
            editor.argumentRows = FilterArgumentRow.rows(for: recent[index].text, texts: recent[index].arguments) ?? []
            editor.argumentRow = 0
            state.topModal = .filterEditor(editor)
            return FilterEditor.filterTextChanged(&state)
        }
        state.topModal = .filterEditor(editor)
        return FilterEditor.builderChanged(&state)
    }
}

/// A builder row's value, typed in its own dialog.
struct FilterValueEntry: TextInputPurpose {
    var row: Int

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        guard case .filterEditor(var editor)? = state.topModal, editor.rows.indices.contains(row) else { return [] }
        editor.rows[row].value = text
        state.topModal = .filterEditor(editor)
        return FilterEditor.builderChanged(&state)
    }
}
