import StratusCloud

/// The pickers of what every tab shares: the zone, the database, who acts, the theme.
enum AppPick: PickerPurpose {
    case zone, database, user, theme

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let item = picker.selectedItem else { return [] }
        switch self {
        case .zone:
            return Dashboard.switchZone(&state, to: item.value)
        case .database:
            guard let scope = DatabaseScope(name: item.value) else { return [] }
            return Dashboard.switchScope(&state, to: scope)
        case .user:
            return Dashboard.actAs(&state, item.value == "none" ? .anonymous : .user(item.value))
        case .theme:
            return [.loadTheme(item.value)]
        }
    }
}

/// `/`: text to find in the loaded rows of the tab on screen.
struct SearchEntry: TextInputPurpose {
    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        Dashboard.search(&state, for: text)
    }
}
