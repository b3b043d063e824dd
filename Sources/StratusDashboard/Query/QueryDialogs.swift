import StratusCloud
import StratusPredicates
import StratusModel

/// The Query tab's pickers: record type, sort, desired keys, page size.
enum QueryPick: PickerPurpose {
    case recordType, sort, thenSort, fields, pageSize

    func picked(_ picker: PickerState, in state: inout DashboardState) -> [Effect] {
        let item = picker.selectedItem
        switch self {
        case .recordType:
            guard let item else { return [] }
            return QueryTab.chooseRecordType(&state, item.value)
        case .sort:
            guard let item else { return [] }
            if item.value.isEmpty {
                state.query.sort = []
            } else {
                let parts = item.value.split(separator: ":")
                let key = String(parts[0])
                if parts.last?.hasPrefix("near-") ?? false {
                    let ascending = parts.last == "near-asc"
                    let current = state.query.sort.first.flatMap { $0.key == key ? $0.distanceFrom : nil }
                    let input = TextInputState(
                        purpose: SortDistanceEntry(field: key, ascending: ascending),
                        title: "Sort \(key) by distance (\(ascending ? "nearest" : "farthest") first) from",
                        hint: "LATITUDE,LONGITUDE in degrees, as in 35.68,139.77",
                        text: current.map(QuerySort.coordinates) ?? "")
                    state.modals.append(.textInput(input))
                    return []
                }
                state.query.sort = [QuerySort(key, ascending: parts.last == "asc")]
            }
            return QueryTab.runQuery(&state)
        case .thenSort:
            guard let item else { return [] }
            if item.value.isEmpty {
                state.query.sort.removeLast()
            } else {
                let parts = item.value.split(separator: ":")
                state.query.sort.append(QuerySort(String(parts[0]), ascending: parts.last == "asc"))
            }
            return QueryTab.runQuery(&state)
        case .fields:
            state.query.desiredKeys = picker.allChecked ? nil : picker.checkedValues
            state.query.columnOffset = 0
            return QueryTab.runQuery(&state)
        case .pageSize:
            guard let item, let size = Int(item.value) else { return [] }
            state.query.pageSize = size
            return QueryTab.runQuery(&state)
        }
    }
}

/// The point a LOCATION field's distance is measured from, for the Query tab's sort.
struct SortDistanceEntry: TextInputPurpose {
    var field: String
    var ascending: Bool

    func problem(with text: String, typing: Bool, in state: DashboardState) -> String? {
        guard !typing else { return nil }
        if case .failure(let error) = ValueText.parseLocation(text) { return error.message }
        return nil
    }

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        guard case .success(let center) = ValueText.parseLocation(text) else { return [] }
        state.query.sort = [QuerySort(field, ascending: ascending, distanceFrom: center)]
        return QueryTab.runQuery(&state)
    }
}

/// Deleting one record (from the Query tab or an inspector).
struct RecordDeletion: ConfirmAction {
    var recordID: RecordID

    func confirmed(in state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.delete, "delete \(recordID.recordName)")
        return [.record(.delete(job: job, recordID: recordID, scope: state.scope))]
    }
}
