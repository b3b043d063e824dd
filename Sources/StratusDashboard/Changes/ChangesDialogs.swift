import StratusEngine
/// The Changes tab's pickers: desired keys, page size, order, a bookmarked start token.
enum ChangesPick: PickerPurpose {
    case keys, pageSize, order, bookmark

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        let item = picker.selectedItem
        switch self {
        case .keys:
            let checked = picker.checkedValues
            state.changes.keys = picker.allChecked ? .all : checked.isEmpty ? .none : .some(checked)
        case .pageSize:
            if let item, let size = Int(item.value) { state.changes.pageSize = size }
        case .order:
            if let item, let order = PlaybackOrder(rawValue: item.value) { state.changes.order = order }
        case .bookmark:
            guard let item else { return [] }
            state.changes.since = item.value
            state.status = StatusMessage("Start token set from the bookmark \"\(item.label)\"; r plays back from it.")
        }
        return []
    }
}

/// The token a playback starts after: a zone's, or the database's.
enum ChangesTokenEntry: TextInputPurpose {
    case zone, database

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch self {
        case .zone: state.changes.since = token
        case .database: state.changes.databaseSince = token
        }
        return []
    }
}
