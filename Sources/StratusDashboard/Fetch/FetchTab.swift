import Foundation
import StratusModel
import StratusCloud

/// The Fetch tab: records by name (typed or pasted), with the fields asked for.
enum FetchTab {
    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .editNames:
            state.modals.append(.textInput(TextInputState(
                purpose: FetchNamesEntry(), title: "Record names to fetch from \(state.zone.zoneName)",
                hint: "separated by spaces, commas or lines (paste works)", text: state.fetch.names.joined(separator: " "))))
        case .fields:
            let names = Set(state.pickableTypes.flatMap { $0.fields.keys })
            let items = names.sorted().map { name in PickerItem(label: name, checked: state.fetch.desiredKeys.map { $0.contains(name) } ?? true) }
            state.modals.append(.picker(PickerState(purpose: FetchKeysPick(), title: "Fields to fetch (none checked: system fields only)",
                                                    items: items, multiple: true)))
        case .run:
            return run(&state)
        case .open:
            let index = state.fetch.list.selected
            guard state.fetch.rows.indices.contains(index), let record = state.fetch.rows[index].record else { return [] }
            return Inspector.open(&state, record: record, partial: state.fetch.desiredKeys != nil)
        case .copy:
            let index = state.fetch.list.selected
            guard state.fetch.rows.indices.contains(index) else { return [] }
            return Dashboard.copy(&state, state.fetch.rows[index].recordName, what: "record name")
        default:
            break
        }
        return []
    }

    static func run(_ state: inout DashboardState) -> [Effect] {
        guard !state.fetch.names.isEmpty else {
            state.modals.append(.textInput(TextInputState(
                purpose: FetchNamesEntry(), title: "Record names to fetch from \(state.zone.zoneName)",
                hint: "separated by spaces, commas or lines (paste works)")))
            return []
        }
        var effects: [Effect] = []
        if let running = state.fetch.job {
            effects += Dashboard.cancel(&state, job: running)
        }
        let job = state.startJob(.fetch, "fetch \(state.fetch.names.count) records")
        state.fetch.job = job
        state.fetch.done = 0
        state.fetch.total = state.fetch.names.count
        effects.append(.fetch(.records(job: job, names: state.fetch.names, desiredKeys: state.fetch.desiredKeys, zone: state.zone, scope: state.scope)))
        return effects
    }

    /// The Fetch tab's progress and the records fetched.
    static func receive(_ state: inout DashboardState, _ message: FetchMessage) -> [Effect] {
        switch message {
        case .progress(let job, let done, let total):
            guard state.fetch.job == job else { return [] }
            state.fetch.done = done
            state.fetch.total = total
            return []

        case .finished(let job, let result, let milliseconds):
            guard state.fetch.job == job else { return [] }
            state.endJob(job)
            state.fetch.job = nil
            state.fetch.lastMilliseconds = milliseconds
            switch result {
            case .success(let rows):
                state.fetch.rows = rows
                state.fetch.done = rows.count
                state.fetch.list = ListCursor()
                let found = rows.filter { $0.record != nil }.count
                state.status = StatusMessage("Fetched \(found) of \(rows.count) records in \(milliseconds) ms.", kind: found == rows.count ? .success : .info)
            case .failure(let error):
                state.status = .error(error)
            }
            return []
        }
    }
}
