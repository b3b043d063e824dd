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

    static func key(_ state: inout DashboardState, _ histogram: ValueHistogram, action: KeyAction?) -> [Effect] {
        var histogram = histogram
        switch action {
        case .back?:
            state.topModal = nil
        case .apply?:
            return filterToBar(&state, histogram)
        case let action? where Dashboard.isMovement(action):
            var list = ListCursor(selected: histogram.selected)
            Dashboard.move(&list, action, count: histogram.bars.count, visible: max(1, state.size.height - 6))
            histogram.selected = list.selected
            state.topModal = .histogram(histogram)
        default:
            break
        }
        return []
    }

    /// Enter on a bar: the filter editor opens on the query's filter and the bar's condition,
    /// checked as any filter is, and applies it once the check passes (it stays open on a refusal).
    static func filterToBar(_ state: inout DashboardState, _ histogram: ValueHistogram) -> [Effect] {
        guard histogram.bars.indices.contains(histogram.selected), let recordType = state.query.recordType else { return [] }
        let bar = histogram.bars[histogram.selected]
        guard let condition = bar.condition else {
            state.status = .note("No filter selects this bar's records: it stands for several values, or for a range over a list's elements.")
            return []
        }
        let current = state.query.filter.trimmingCharacters(in: .whitespaces)
        let text = current.isEmpty || current == "TRUEPREDICATE" ? condition.format : "(\(current)) AND \(condition.format)"
        state.topModal = nil
        let editor = FilterEditorState(recordType: recordType, fields: BuilderField.fields(for: state.currentSchema),
                                       text: text, arguments: state.query.arguments + condition.arguments)
        state.modals.append(.filterEditor(editor))
        let effects = FilterEditor.filterTextChanged(&state, focusText: false)
        guard case .filterEditor(let checking)? = state.topModal else { return effects }
        return effects + FilterEditor.applyFilter(&state, checking)
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
