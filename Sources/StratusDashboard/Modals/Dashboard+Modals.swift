import Foundation
import StratusModel
import StratusPredicates
import StratusTerminal
import StratusCloud

extension Dashboard {
    static func handleModalKey(_ state: inout DashboardState, _ modal: Modal, key: Key, action: KeyAction?) -> [Effect] {
        switch modal {
        case .help(var help):
            switch action {
            case .back?: state.topModal = nil
            case .up?: help.scroll = max(0, help.scroll - 1)
            case .down?: help.scroll += 1
            case .pageUp?: help.scroll = max(0, help.scroll - Layout.helpRows(state.size))
            case .pageDown?: help.scroll += Layout.helpRows(state.size)
            default: break
            }
            if case .help? = state.topModal { state.topModal = .help(help) }
            return []
        case .histogram(let histogram):
            return HistogramFeature.key(&state, histogram, action: action)
        case .requestBodies(let bodies):
            return LogsTab.bodiesKey(&state, bodies, action: action)
        case .commandLine(let line):
            return commandLineKey(&state, line, key: key, action: action)
        case .picker(let picker):
            return pickerKey(&state, picker, action: action)
        case .textInput(var input):
            switch action {
            case .back?:
                state.topModal = nil
            case .open?:
                if let error = input.purpose.problem(with: input.field.text, typing: false, in: state) {
                    input.error = error
                    state.topModal = .textInput(input)
                    return []
                }
                state.topModal = nil
                return input.purpose.entered(input.field.text, in: &state)
            default:
                input.field.handle(key)
                input.error = input.purpose.problem(with: input.field.text, typing: true, in: state)
                state.topModal = .textInput(input)
            }
            return []
        case .inspector(let inspector):
            return Inspector.key(&state, inspector, action: action)
        case .filterEditor(let editor):
            return FilterEditor.key(&state, editor, key: key, action: action)
        case .form(let form):
            return RecordForm.key(&state, form, key: key, action: action)
        case .confirm(let confirm):
            switch action {
            case .yes?:
                state.topModal = nil
                return confirm.action.confirmed(in: &state)
            case .no?:
                state.topModal = nil
                return confirm.action.declined(in: &state)
            default:
                break
            }
            return []
        case .conflict(let conflict):
            return conflictKey(&state, conflict, action: action)
        case .subscriptionDraft(let draft):
            return SubscriptionsTab.subscriptionDraftKey(&state, draft, action: action)
        }
    }

    // MARK: - Pickers

    static func pickerKey(_ state: inout DashboardState, _ picker: PickerState, action: KeyAction?) -> [Effect] {
        var picker = picker
        let visible = Layout.pickerRows(state.size)
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .up?, .down?, .pageUp?, .pageDown?:
            move(&picker.list, action!, count: picker.items.count, visible: visible)
        case .toggleCheck?:
            if picker.items.indices.contains(picker.list.selected) { picker.items[picker.list.selected].checked.toggle() }
            picker.list.move(by: 1, count: picker.items.count, visible: visible)
        case .checkAll?:
            let all = !picker.items.allSatisfy(\.checked)
            for index in picker.items.indices { picker.items[index].checked = all }
        case .open?:
            state.topModal = nil
            return picker.purpose.picked(picker, in: &state)
        default:
            break
        }
        state.topModal = .picker(picker)
        return []
    }

    // MARK: - Conflict

    static func conflictKey(_ state: inout DashboardState, _ conflict: ConflictState, action: KeyAction?) -> [Effect] {
        var conflict = conflict
        switch action {
        case .overwrite?:
            let job = state.startJob(.save, "overwrite \(conflict.mine.recordName)")
            conflict.savingJob = job
            state.topModal = .conflict(conflict)
            return [.record(.save(job: job, record: conflict.mine, policy: .allKeys, scope: state.scope, isNew: false))]
        case .takeServer?:
            state.topModal = nil
            if case .form? = state.topModal { state.topModal = nil }
            RecordForm.recordSaved(&state, conflict.server)
            state.status = StatusMessage("Took the server's version of \(conflict.server.recordName); your edit was dropped.", kind: .success)
        case .cancel?:
            state.topModal = nil
        case .up?:
            conflict.list.move(by: -1, count: conflict.rows.count, visible: Layout.formRows(state.size))
            state.topModal = .conflict(conflict)
        case .down?:
            conflict.list.move(by: 1, count: conflict.rows.count, visible: Layout.formRows(state.size))
            state.topModal = .conflict(conflict)
        default:
            break
        }
        return []
    }
}
