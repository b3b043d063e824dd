/// The field whose values `H` charts over the Query tab's result.
struct HistogramFieldPick: PickerPurpose {
    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        guard let field = picker.selectedItem?.value, let request = state.query.request else { return [] }
        let job = state.startJob(.histogram, "histogram of \(field)")
        state.status = StatusMessage("Reading \(field) over the result… (Esc cancels)")
        return [.query(.histogram(job: job, request: request, field: field, zone: state.zone, scope: state.scope))]
    }
}
