import StratusCloud

/// The record type picker (`t`): each type with its records in the current zone, counted as
/// the picker opens, and its fields.
extension QueryTab {
    static func recordTypeItems(_ state: DashboardState) -> [PickerItem] {
        let counts = state.query.typeCounts.flatMap { $0.zone == state.zone && $0.scope == state.scope ? $0.counts : nil }
        return state.pickableTypes.map { type in
            let records = counts.map { ViewKit.count($0[type.name, default: 0], "record") } ?? "counting…"
            return PickerItem(label: type.name, detail: "\(records) · \(ViewKit.count(type.fields.count, "field"))")
        }
    }

    /// Puts fresh counts into the record type picker if it is open, keeping its cursor.
    static func refreshRecordTypePicker(_ state: inout DashboardState) {
        for index in state.modals.indices {
            guard case .picker(var picker) = state.modals[index], case .recordType? = picker.purpose as? QueryPick else { continue }
            picker.items = recordTypeItems(state)
            state.modals[index] = .picker(picker)
        }
    }
}
