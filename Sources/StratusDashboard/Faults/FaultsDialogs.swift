import StratusEngine

/// The kind of a new fault; its options are asked next.
struct FaultKindPick: PickerPurpose {
    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let value = picker.selectedItem?.value, let kind = FaultKind(rawValue: value) else { return [] }
        state.modals.append(.textInput(TextInputState(purpose: FaultOptionsEntry(kind: kind),
                                                      title: "Add \(kind.name): options (Enter with none: the defaults)",
                                                      hint: FaultsTabView.optionsHint(kind))))
        return []
    }
}

/// The options of a new fault of `kind`, in the command line's words.
struct FaultOptionsEntry: TextInputPurpose {
    var kind: FaultKind

    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        if case .failure(let error) = FaultSpec.parse(kind: kind, text) { return error.message }
        return nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        guard case .success(let fault) = FaultSpec.parse(kind: kind, text) else { return [] }
        return [.faults(.add(job: state.startJob(.faults, "add \(kind.name)"), fault))]
    }
}

/// Taking one fault out of the plan (`id` nil: all of them).
struct FaultRemoval: ConfirmAction {
    var id: Int64?

    func confirmed(in state: inout DashboardState) -> [Effect] {
        [.faults(.remove(job: state.startJob(.faults, id.map { "remove fault #\($0)" } ?? "clear the fault plan"), id: id))]
    }
}
