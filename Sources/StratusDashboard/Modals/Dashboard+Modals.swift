import Foundation
import StratusEngine
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
        case .histogram:
            if action == .back { state.topModal = nil }
            return []
        case .commandLine(let line):
            return commandLineKey(&state, line, key: key, action: action)
        case .picker(let picker):
            return pickerKey(&state, picker, action: action)
        case .textInput(var input):
            switch action {
            case .back?:
                state.topModal = nil
            case .open?:
                if let error = textInputError(state, input.purpose, input.field.text, typing: false) {
                    input.error = error
                    state.topModal = .textInput(input)
                    return []
                }
                state.topModal = nil
                return textEntered(&state, input.purpose, input.field.text)
            default:
                input.field.handle(key)
                input.error = textInputError(state, input.purpose, input.field.text, typing: true)
                state.topModal = .textInput(input)
            }
            return []
        case .inspector(let inspector):
            return inspectorKey(&state, inspector, action: action)
        case .filterEditor(let editor):
            return filterEditorKey(&state, editor, key: key, action: action)
        case .form(let form):
            return formKey(&state, form, key: key, action: action)
        case .confirm(let confirm):
            switch action {
            case .yes?:
                state.topModal = nil
                return confirmed(&state, confirm.action)
            case .no?:
                state.topModal = nil
            default:
                break
            }
            return []
        case .conflict(let conflict):
            return conflictKey(&state, conflict, action: action)
        case .subscriptionDraft(let draft):
            return subscriptionDraftKey(&state, draft, action: action)
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
            return picked(&state, picker)
        default:
            break
        }
        state.topModal = .picker(picker)
        return []
    }

    static func picked(_ state: inout DashboardState, _ picker: PickerState) -> [Effect] {
        let item = picker.items.indices.contains(picker.list.selected) ? picker.items[picker.list.selected] : nil
        switch picker.purpose {
        case .recordType, .sort, .fields, .pageSize:
            return pickedForQuery(&state, picker.purpose, picker)
        case .zone:
            guard let item else { return [] }
            return switchZone(&state, to: item.value)
        case .database:
            guard let item, let scope = DatabaseScope(name: item.value) else { return [] }
            return switchScope(&state, to: scope)
        case .shareParticipant, .sharePermission:
            guard let item else { return [] }
            return pickedForSharing(&state, picker.purpose, item)
        case .faultKind:
            guard let item else { return [] }
            return faultKindPicked(&state, item)
        case .compactPoint:
            guard let item else { return [] }
            return compactPointPicked(&state, item)
        case .histogramField:
            guard let item else { return [] }
            return histogramFieldPicked(&state, item.value)
        case .user:
            guard let item else { return [] }
            return item.value == "none" ? actAs(&state, .anonymous) : actAs(&state, .user(item.value))
        case .theme:
            guard let item else { return [] }
            return [.loadTheme(item.value)]
        case .builderField(let row), .builderOperator(let row):
            guard let item else { return [] }
            return builderPicked(&state, picker.purpose, row: row, value: item.value)
        case .recentFilter:
            guard let item, case .filterEditor(var editor)? = state.topModal, let index = Int(item.value),
                  let recent = state.preferences.recentFilters[editor.recordType], recent.indices.contains(index) else { return [] }
            editor.text.set(recent[index].text)
            editor.argumentRows = FilterArgumentRow.rows(for: recent[index].text, texts: recent[index].arguments) ?? []
            editor.argumentRow = 0
            state.topModal = .filterEditor(editor)
            return filterTextChanged(&state)
        case .fetchKeys:
            let checked = picker.items.filter(\.checked).map(\.value)
            state.fetch.desiredKeys = checked.count == picker.items.count ? nil : checked
            return []
        case .changesKeys:
            let checked = picker.items.filter(\.checked).map(\.value)
            state.changes.keys = checked.count == picker.items.count ? .all : checked.isEmpty ? .none : .some(checked)
            return []
        case .changesPageSize:
            if let item, let size = Int(item.value) { state.changes.pageSize = size }
            return []
        case .changesOrder:
            if let item, let order = PlaybackOrder(rawValue: item.value) { state.changes.order = order }
            return []
        case .bookmark:
            guard let item else { return [] }
            state.changes.since = item.value
            state.status = StatusMessage("Start token set from the bookmark \"\(item.label)\"; r plays back from it.")
            return []
        case .subscriptionKind, .subscriptionType, .subscriptionFiresOn, .subscriptionKeys, .subscriptionZone:
            return draftPicked(&state, picker)
        }
    }

    /// What is wrong with a dialog's text, shown in the dialog (which stays open); nil when
    /// it can be taken. While `typing`, only what is checked as you type (an empty text is
    /// not yet an error).
    static func textInputError(_ state: DashboardState, _ purpose: TextInputPurpose, _ text: String, typing: Bool) -> String? {
        switch purpose {
        case .sortDistance:
            guard !typing else { return nil }
            if case .failure(let error) = ValueText.parseLocation(text) { return error.message }
            return nil
        case .newZone:
            guard !typing || !text.isEmpty else { return nil }
            return newZoneNameProblem(state, text)
        case .faultOptions(let kind):
            return faultOptionsProblem(kind, text)
        case .exportPath:
            guard !typing else { return nil }
            return ResultExport.pathProblem(text)
        default:
            return nil
        }
    }

    static func textEntered(_ state: inout DashboardState, _ purpose: TextInputPurpose, _ text: String) -> [Effect] {
        switch purpose {
        case .sortDistance(let field, let ascending):
            guard case .success(let center) = ValueText.parseLocation(text) else { return [] }
            state.query.sort = [QuerySort(field, ascending: ascending, distanceFrom: center)]
            return runQuery(&state)
        case .fetchNames:
            state.fetch.names = FetchTabState.parseNames(text)
            return runFetch(&state)
        case .changesToken:
            state.changes.since = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return []
        case .databaseToken:
            state.changes.databaseSince = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return []
        case .search:
            return search(&state, for: text)
        case .builderValue(let row):
            guard case .filterEditor(var editor)? = state.topModal, editor.rows.indices.contains(row) else { return [] }
            editor.rows[row].value = text
            state.topModal = .filterEditor(editor)
            return builderChanged(&state)
        case .subscriptionID:
            draftIDEntered(&state, text)
            return []
        case .newZone:
            return createZone(&state, named: text)
        case .faultOptions(let kind):
            return faultOptionsEntered(&state, kind, text)
        case .exportPath:
            return startExport(&state, to: text)
        case .schemaExportPath:
            let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
            guard !path.isEmpty else { return [] }
            let job = state.startJob(.exportSchema, "export the schema")
            return [.exportSchema(job: job, path: path)]
        case .schemaDiffPath:
            let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
            guard !path.isEmpty else { return [] }
            let job = state.startJob(.schema, "compare the schema")
            return [.diffSchema(job: job, path: path)]
        }
    }

    static func confirmed(_ state: inout DashboardState, _ action: ConfirmAction) -> [Effect] {
        switch action {
        case .deleteRecord(let recordID, _):
            let job = state.startJob(.delete, "delete \(recordID.recordName)")
            return [.delete(job: job, recordID: recordID, scope: state.scope)]
        case .deleteSubscription(let id):
            let job = state.startJob(.deleteSubscription, "delete subscription \(id)")
            return [.deleteSubscription(job: job, subscriptionID: id, scope: state.scope)]
        case .removeParticipant(let url, let user, let alias):
            return removeParticipant(&state, url: url, user: user, alias: alias)
        case .removeFault(let id):
            return removeFault(&state, id)
        case .bulkDelete(let count):
            return confirmedBulkDelete(&state, count: count)
        case .compactHistory(let zone, let before, let keep):
            return [.compactHistory(job: state.startJob(.compact, "compact \(zone.zoneName)"), zone: zone, scope: state.scope, before: before, keep: keep)]
        case .deleteZone(let zoneID):
            let job = state.startJob(.deleteZone, "delete zone \(zoneID.zoneName)")
            return [.deleteZone(job: job, zone: zoneID, scope: state.scope)]
        case .quit:
            state.wantsQuit = true
            return cancelAll(&state) + stopWatching(&state) + stopWatchingLogs(&state) + stopWatchingFaults(&state)
        }
    }

    // MARK: - Command line

    static let commands = ["db", "zone", "user", "type", "theme", "tab", "q", "quit", "help"]

    static func commandLineKey(_ state: inout DashboardState, _ line: CommandLineState, key: Key, action: KeyAction?) -> [Effect] {
        var line = line
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .open?:
            state.topModal = nil
            return runCommand(&state, line.field.text)
        case .complete?:
            if let index = line.completionIndex, !line.completions.isEmpty {
                let next = (index + 1) % line.completions.count
                line.completionIndex = next
                line.field.set(replaceLastWord(line.field.text, with: line.completions[next]))
            } else {
                line.completions = completions(state, for: line.field.text)
                if let first = line.completions.first {
                    line.completionIndex = 0
                    line.field.set(replaceLastWord(line.field.text, with: first) + (line.completions.count == 1 ? " " : ""))
                    if line.completions.count == 1 { line.completions = []; line.completionIndex = nil }
                }
            }
        default:
            line.field.handle(key)
            line.completions = completions(state, for: line.field.text)
            line.completionIndex = nil
        }
        state.topModal = .commandLine(line)
        return []
    }

    static func replaceLastWord(_ text: String, with word: String) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.isEmpty { return word }
        words[words.count - 1] = word
        return words.joined(separator: " ")
    }

    /// Candidates for the word being typed: a command, then its argument (zone, database,
    /// record type or theme names).
    static func completions(_ state: DashboardState, for text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let last = words.last ?? ""
        let candidates: [String]
        if words.count <= 1 {
            candidates = commands
        } else {
            switch words[0] {
            case "db": candidates = DatabaseScope.allCases.map(\.name)
            case "zone": candidates = state.zones.map(\.zoneID.zoneName)
            case "user": candidates = state.users.map(\.alias) + ["none"]
            case "type": candidates = state.pickableTypes.map(\.name)
            case "theme": candidates = state.themeNames
            case "tab": candidates = DashboardTab.allCases.map { $0.title.lowercased() }
            default: candidates = []
            }
        }
        return candidates.filter { $0.lowercased().hasPrefix(last.lowercased()) && $0 != last }
    }

    static func runCommand(_ state: inout DashboardState, _ text: String) -> [Effect] {
        let words = text.split(separator: " ").map(String.init)
        guard let command = words.first else { return [] }
        let argument = words.dropFirst().joined(separator: " ")
        switch command {
        case "q", "quit", "exit":
            state.wantsQuit = true
            return cancelAll(&state)
        case "help":
            state.modals.append(.help(HelpState(contexts: contexts(state), title: helpTitle(state))))
            return []
        case "db", "database":
            guard let scope = DatabaseScope(name: argument) else {
                state.status = StatusMessage(":db takes public, private or shared", kind: .error)
                return []
            }
            return switchScope(&state, to: scope)
        case "zone":
            guard !argument.isEmpty else {
                openZonePicker(&state)
                return []
            }
            guard state.zones.isEmpty || state.zones.contains(where: { $0.zoneID.zoneName == argument }) else {
                state.status = StatusMessage("No zone \(argument) in the \(state.scope.name) database (zones: \(state.zones.map(\.zoneID.zoneName).joined(separator: ", "))).", kind: .error)
                return []
            }
            return switchZone(&state, to: argument)
        case "user":
            guard !argument.isEmpty else { return openUserPicker(&state) }
            return actAs(&state, named: argument)
        case "type":
            guard state.pickableTypes.contains(where: { $0.name == argument }) else {
                state.status = StatusMessage("No record type \(argument).", kind: .error)
                return []
            }
            state.tab = .query
            return pickedForQuery(&state, .recordType, PickerState(purpose: .recordType, title: "", items: [PickerItem(label: argument)]))
        case "theme":
            guard !argument.isEmpty else {
                let items = state.themeNames.map { PickerItem(label: $0, detail: $0 == state.theme.name ? "current" : "") }
                state.modals.append(.picker(PickerState(purpose: .theme, title: "Theme", items: items)))
                return []
            }
            return [.loadTheme(argument)]
        case "tab":
            guard let tab = DashboardTab.allCases.first(where: { $0.title.lowercased() == argument.lowercased() || "\($0.rawValue)" == argument }) else {
                state.status = StatusMessage(":tab takes query, fetch, changes, zones, schema or subscriptions", kind: .error)
                return []
            }
            state.modals.removeAll()
            state.tab = tab
            return enteredTab(&state)
        default:
            state.status = StatusMessage("Unknown command :\(command) (try :db, :zone, :user, :type, :theme, :tab, :q).", kind: .error)
            return []
        }
    }

    // MARK: - Conflict

    static func conflictKey(_ state: inout DashboardState, _ conflict: ConflictState, action: KeyAction?) -> [Effect] {
        var conflict = conflict
        switch action {
        case .overwrite?:
            let job = state.startJob(.save, "overwrite \(conflict.mine.recordName)")
            conflict.savingJob = job
            state.topModal = .conflict(conflict)
            return [.save(job: job, record: conflict.mine, policy: .allKeys, scope: state.scope, isNew: false)]
        case .takeServer?:
            state.topModal = nil
            if case .form? = state.topModal { state.topModal = nil }
            recordSaved(&state, conflict.server)
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
