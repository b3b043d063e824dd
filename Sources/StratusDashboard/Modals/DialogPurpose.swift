/// What a picker was opened for. The tab (or feature) that opens a picker supplies a purpose
/// of its own type and gets the choice back through it: the dialogs know no tab, and a tab's
/// state is written only by its own code.
protocol PickerPurpose: Sendable {
    /// Enter in the picker, which is already closed: `picker` holds the selected item and, in
    /// a picker of several, the checked ones.
    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect]
}

/// What a text-input dialog was opened for; the text goes back to its owner through it.
protocol TextInputPurpose: Sendable {
    /// What is wrong with `text`, shown in the dialog (which stays open); nil when it can be
    /// taken. While `typing`, only what is checked as you type (an empty text is not yet an
    /// error).
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String?
    /// Enter with text the owner takes; the dialog is already closed.
    func entered(_ text: String, in state: inout DashboardState) -> [Effect]
}

extension TextInputPurpose {
    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? { nil }
}

/// What a confirmation dialog asks before doing; `y` hands it back to the tab that asked.
protocol ConfirmAction: Sendable {
    /// `y`: the dialog is already closed.
    func confirmed(in state: inout DashboardState) -> [Effect]
    /// `n` or Esc: the dialog is already closed.
    func declined(in state: inout DashboardState) -> [Effect]
}

extension ConfirmAction {
    func declined(in state: inout DashboardState) -> [Effect] { [] }
}
