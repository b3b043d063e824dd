/// The Fetch tab's record names, typed or pasted.
struct FetchNamesEntry: TextInputPurpose {
    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        state.fetch.names = FetchTabState.parseNames(text)
        return FetchTab.run(&state)
    }
}

/// The fields the Fetch tab asks for (all checked: every field).
struct FetchKeysPick: PickerPurpose {
    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        state.fetch.desiredKeys = picker.allChecked ? nil : picker.checkedValues
        return []
    }
}
