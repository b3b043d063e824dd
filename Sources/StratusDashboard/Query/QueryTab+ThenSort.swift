import StratusCloud
import StratusModel

/// `S`: sorting by more than one field. Each pick appends a sort after those in use (`rating ↓,
/// then title ↑`), as `CKQuery.sortDescriptors` takes several; the picker can also drop the last.
extension QueryTab {
    /// The fields and system keys a query can sort by: SORTABLE, ordered, single-valued.
    static func sortableKeys(_ schema: RecordTypeSchema) -> [String] {
        var keys = schema.sortedFields.filter { $0.isSortable && $0.type.base.isOrdered && !$0.type.isList }.map(\.name)
        for system in [SystemField.createTime, .modTime] where schema.systemIndexes[system]?.contains(.sortable) ?? false {
            keys.append(system.predicateKey)
        }
        return keys
    }

    static func thenSortPicker(_ state: inout DashboardState) -> [Effect] {
        guard let schema = state.currentSchema else { return [] }
        guard !state.query.sort.isEmpty else {
            state.status = .note("Nothing is sorted yet: s picks the first sort, S then adds the next.")
            return []
        }
        if state.query.sort.contains(where: { $0.distanceFrom != nil }) {
            state.status = .note("A sort by distance stands alone here; s picks a field sort to add others after it.")
            return []
        }
        let used = Set(state.query.sort.map(\.key))
        var items: [PickerItem] = []
        if state.query.sort.count > 1, let last = state.query.sort.last {
            items.append(PickerItem(label: "drop \(last.label)", detail: "the last sort", value: ""))
        }
        for name in sortableKeys(schema) where !used.contains(name) {
            items.append(PickerItem(label: "\(name) ↑", detail: "ascending", value: "\(name):asc"))
            items.append(PickerItem(label: "\(name) ↓", detail: "descending", value: "\(name):desc"))
        }
        guard !items.isEmpty else {
            state.status = .note("Every SORTABLE field of \(schema.name) is in the sort already.")
            return []
        }
        let title = "Then by (after \(state.query.sort.map(\.label).joined(separator: ", ")))"
        state.modals.append(.picker(PickerState(purpose: QueryPick.thenSort, title: title, items: items)))
        return []
    }
}
