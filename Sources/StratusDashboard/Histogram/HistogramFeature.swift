import StratusCloud

/// `H` in the Query tab: pick a field, see how its values spread over the result.
enum HistogramFeature {
    static func histogramPicker(_ state: inout DashboardState) -> [Effect] {
        guard state.query.hasRun, let schema = state.currentSchema, !schema.fields.isEmpty else {
            state.status = StatusMessage("Run a query of a type with fields first (r); H then charts a field over its result.", kind: .error)
            return []
        }
        let items = schema.fields.values.sorted { $0.name < $1.name }.map { PickerItem(label: $0.name, detail: "\($0.type)", value: $0.name) }
        state.modals.append(.picker(PickerState(purpose: HistogramFieldPick(), title: "Chart which field?", items: items)))
        return []
    }

    static func histogramLoaded(_ state: inout DashboardState, job: Int, _ result: Result<ValueHistogram, CloudKitError>) -> [Effect] {
        guard state.job(job) != nil else { return [] }
        state.endJob(job)
        switch result {
        case .success(let histogram):
            state.status = nil
            state.modals.append(.histogram(histogram))
        case .failure(let error):
            state.status = .error(error)
        }
        return []
    }
}
