import Foundation
import StratusModel
import StratusTerminal
import StratusCloud

/// The record form (`e`, `n`): a row per field, saved with the change tag, and the conflict
/// dialog when the store changed meanwhile.
enum RecordForm {
    /// A form with a row per field of the record's type (and any field the record has beyond it).
    static func makeForm(_ state: DashboardState, record: Record, isNew: Bool) -> EditFormState {
        let schema = state.schema(named: record.recordType)
        var types: [String: FieldType] = [:]
        for field in schema?.sortedFields ?? [] { types[field.name] = field.type }
        for (name, value) in record.fields where types[name] == nil { types[name] = value.type }
        let rows = types.keys.sorted().map { name -> FormRow in
            let type = types[name]!
            let text = ValueText.editable(record[name])
            return FormRow(name: name, type: type, field: TextField(text), readOnly: !ValueText.isEditable(type), error: nil, original: text)
        }
        var form = EditFormState(isNew: isNew, base: record, rows: rows)
        form.nameField = TextField(isNew ? "" : record.recordName)
        return form
    }

    static func key(_ state: inout DashboardState, _ form: EditFormState, key: Key, action: KeyAction?) -> [Effect] {
        var form = form
        let visible = Layout.formRows(state.size)
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .nextField?:
            form.list.move(by: 1, count: form.rowCount, visible: visible)
        case .previousField?:
            form.list.move(by: -1, count: form.rowCount, visible: visible)
        case .save?:
            return save(&state, form)
        default:
            let index = form.list.selected - form.rowOffset
            if index < 0 {
                form.nameField.handle(key)
            } else if form.rows.indices.contains(index) {
                if form.rows[index].readOnly {
                    if case .char = key {
                        state.status = StatusMessage("\(form.rows[index].type) fields are read-only in the dashboard.", kind: .error)
                    }
                } else {
                    form.rows[index].field.handle(key)
                    form.rows[index].error = nil
                }
            }
        }
        state.topModal = .form(form)
        return []
    }

    static func save(_ state: inout DashboardState, _ form: EditFormState) -> [Effect] {
        var form = form
        var record = form.base
        if form.isNew {
            let name = form.nameField.text.trimmingCharacters(in: .whitespaces)
            let recordName = name.isEmpty ? UUID().uuidString : name
            if let problem = RecordID.problem(withName: recordName) {
                form.error = "Record name: \(problem)"
                state.topModal = .form(form)
                return []
            }
            record = Record(recordType: form.base.recordType, recordID: RecordID(recordName: recordName, zoneID: form.base.recordID.zoneID))
        }
        var changed = 0
        var firstError: Int?
        for index in form.rows.indices {
            let row = form.rows[index]
            guard !row.readOnly, row.field.text != row.original || (form.isNew && !row.field.isEmpty) else { continue }
            switch ValueText.parse(row.field.text, as: row.type) {
            case .success(let value):
                record[row.name] = value
                changed += 1
            case .failure(let error):
                form.rows[index].error = error.message
                if firstError == nil { firstError = index }
            }
        }
        if let firstError {
            form.error = "Fix the marked field first."
            form.list.move(to: firstError + form.rowOffset, count: form.rowCount, visible: Layout.formRows(state.size))
            state.topModal = .form(form)
            return []
        }
        if changed == 0 && !form.isNew {
            state.topModal = nil
            state.status = StatusMessage("Nothing changed; nothing saved.")
            return []
        }
        let job = state.startJob(.save, "save \(record.recordName)")
        form.savingJob = job
        form.error = nil
        form.pending = record
        state.topModal = .form(form)
        return [.record(.save(job: job, record: record, policy: .ifServerRecordUnchanged, scope: state.scope, isNew: form.isNew))]
    }

    static func saveFinished(_ state: inout DashboardState, job: Int, result: Result<Record, CloudKitError>, isNew: Bool) -> [Effect] {
        switch result {
        case .success(let saved):
            // Close the conflict dialog and the form that asked for this save.
            if case .conflict? = state.topModal { state.topModal = nil }
            if case .form? = state.topModal { state.topModal = nil }
            recordSaved(&state, saved)
            state.status = StatusMessage("Saved \(saved.recordType) \(saved.recordName) (change tag \(saved.recordChangeTag ?? "?")).", kind: .success)
            return QueryTab.refreshAfterEdit(&state, selecting: saved.recordID)
        case .failure(let error):
            if case .conflict(var conflict)? = state.topModal, conflict.savingJob == job {
                conflict.savingJob = nil
                state.topModal = .conflict(conflict)
                state.status = .error(error)
                return []
            }
            guard case .form(var form)? = state.topModal, form.savingJob == job else {
                state.status = .error(error)
                return []
            }
            form.savingJob = nil
            if error.code == .serverRecordChanged, let server = error.serverRecord, let mine = form.pending {
                state.topModal = .form(form)
                state.modals.append(.conflict(ConflictState(mine: mine, server: server)))
                state.status = .error(error)
                return []
            }
            form.error = error.description
            state.topModal = .form(form)
            state.status = .error(error)
        }
        return []
    }

    /// Puts a saved (or the server's) record everywhere it shows: the inspector, the query row
    /// that holds it, the fetch rows. A new record takes its place in the results when the
    /// query runs again after the save (``refreshAfterEdit(_:selecting:)``), where the filter
    /// and the sort put it.
    static func recordSaved(_ state: inout DashboardState, _ record: Record) {
        for index in state.modals.indices {
            if case .inspector(var inspector) = state.modals[index], inspector.record.recordID == record.recordID {
                inspector.record = record
                state.modals[index] = .inspector(inspector)
            }
        }
        _ = state.query.replace(record.trimmed(to: state.query.desiredKeys))
        for index in state.fetch.rows.indices where state.fetch.rows[index].recordName == record.recordName {
            state.fetch.rows[index].record = record
            state.fetch.rows[index].error = nil
        }
    }

    static func edit(_ state: inout DashboardState, _ record: Record, partial: Bool) -> [Effect] {
        if partial {
            let job = state.startJob(.loadRecord, "record \(record.recordName)")
            return [.record(.load(job: job, recordID: record.recordID, scope: state.scope, purpose: .edit))]
        }
        state.modals.append(.form(RecordForm.makeForm(state, record: record, isNew: false)))
        return []
    }
}
