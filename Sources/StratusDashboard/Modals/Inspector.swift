import Foundation
import StratusModel
import StratusEngine
import StratusCloud

/// The inspector: one record's fields, references to follow, values to copy.
enum Inspector {
    static func key(_ state: inout DashboardState, _ inspector: InspectorState, action: KeyAction?) -> [Effect] {
        var inspector = inspector
        let rows = InspectorRows.rows(inspector.record, schema: state.schema(named: inspector.record.recordType), lens: state.coreDataLensActive, graph: inspector.graph)
        guard let action else { return [] }
        if Dashboard.isMovement(action) {
            Dashboard.move(&inspector.list, action, count: rows.count, visible: Layout.inspectorRows(state.size))
            state.topModal = .inspector(inspector)
            return []
        }
        let row = rows.indices.contains(inspector.list.selected) ? rows[inspector.list.selected] : nil
        switch action {
        case .back:
            state.topModal = nil
            return []
        case .open:
            guard let row, let name = row.reference else {
                state.status = .note("Enter follows a reference; this field is not one.")
                return []
            }
            let job = state.startJob(.loadRecord, "record \(name)")
            return [.record(.load(job: job, recordID: RecordID(recordName: name, zoneID: inspector.record.recordID.zoneID),
                                scope: state.scope, purpose: .openInspector))]
        case .edit:
            state.modals.append(.form(RecordForm.makeForm(state, record: inspector.record, isNew: false)))
            return []
        case .delete:
            QueryTab.askDelete(&state, inspector.record)
            return []
        case .copy:
            guard let row else { return [] }
            let value = row.isSystem ? row.value : ValueText.editable(inspector.record[row.name])
            return Dashboard.copy(&state, value, what: "value of \(row.name)")
        case .copyRecord:
            return copyRecordJSON(&state, inspector)
        default:
            return Dashboard.handleGlobal(&state, action) ?? []
        }
    }

    /// Opens the inspector on a record; when the list held only some keys, the full record is
    /// fetched and replaces it.
    static func open(_ state: inout DashboardState, record: Record, partial: Bool) -> [Effect] {
        var inspector = InspectorState(record: record)
        var effects: [Effect] = []
        if partial {
            let job = state.startJob(.loadRecord, "record \(record.recordName)")
            inspector.loadingJob = job
            effects.append(.record(.load(job: job, recordID: record.recordID, scope: state.scope, purpose: .refreshInspector)))
        }
        state.modals.append(.inspector(inspector))
        effects.append(.sharing(.shareStatus(record.recordID, scope: state.scope)))
        return effects + readGraph(state, record)
    }

    /// Reads a mirrored object's relationships from its zone when the lens shows it.
    static func readGraph(_ state: DashboardState, _ record: Record) -> [Effect] {
        guard state.coreDataLensActive, CoreDataLens.entity(record) != nil else { return [] }
        return [.record(.readGraph(record.recordID, scope: state.scope, recordTypes: state.recordTypes))]
    }

    /// The relationships read for `recordID` go to every inspector showing it.
    static func graphRead(_ state: inout DashboardState, _ recordID: RecordID, _ result: Result<CoreDataGraph, CloudKitError>) {
        let graph: CoreDataGraph
        switch result {
        case .success(let read): graph = read
        case .failure(let error):
            graph = CoreDataGraph(recordName: recordID.recordName, relationships: [])
            state.status = .error(error)
        }
        for index in state.modals.indices {
            guard case .inspector(var inspector) = state.modals[index], inspector.record.recordID == recordID else { continue }
            inspector.graph = graph
            state.modals[index] = .inspector(inspector)
        }
    }
}
