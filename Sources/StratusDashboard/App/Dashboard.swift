import Foundation
import StratusModel
import StratusTerminal
import StratusCloud

/// The dashboard's logic, Elm style: `update` takes the state and a message, changes the
/// state and returns the work to do (effects). No I/O happens here, so every key press can be
/// tested by calling it.
enum Dashboard {
    /// The work to do when the dashboard opens: zones and schema (the first query follows the
    /// schema, or starts at once when the record type is known).
    static func start(_ state: inout DashboardState) -> [Effect] {
        if let remote = state.remote { return startOnRemote(&state, remote) }
        var effects = loadZones(&state) + loadUsers(&state) + FaultsTab.startWatchingPlan(&state)
        let schemaJob = state.startJob(.schema, "schema")
        effects.append(.schema(.load(job: schemaJob)))
        if state.query.recordType != nil {
            effects += QueryTab.runQuery(&state)
        } else {
            let job = state.startJob(.recordCounts, "records by type")
            state.query.recordCountsJob = job
            effects.append(.query(.recordCounts(job: job, zone: state.zone, scope: state.scope)))
        }
        return effects
    }

    static func update(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        // A key that answers a y/n (a delete's) confirms what it does; other writes to
        // production ask first.
        var confirmed = false
        if case .key = message, case .confirm? = state.topModal { confirmed = true }
        let effects = handle(&state, message)
        if let remote = state.remote { received(&state, message, on: remote) }
        return ProductionWrites.gate(&state, effects, confirmedAlready: confirmed)
    }

    private static func handle(_ state: inout DashboardState, _ message: DashboardMessage) -> [Effect] {
        switch message {
        case .key(let key):
            return handleKey(&state, key)
        case .paste(let text):
            return handlePaste(&state, text)
        case .mouse(let event):
            return handleMouse(&state, event)
        case .resize(let size):
            state.size = size
            clampLists(&state)
            return QueryTab.loadMoreIfNeeded(&state)
        case .tick:
            if state.isBusy { state.spinnerFrame &+= 1 }
            return []
        default:
            return receive(&state, message)
        }
    }

    /// The key contexts of what is on screen, most specific first.
    static func contexts(_ state: DashboardState) -> [KeyContext] {
        if let modal = state.topModal {
            switch modal {
            case .help: return [.help]
            case .commandLine: return [.commandLine]
            case .picker(let picker): return picker.multiple ? [.multiPicker, .picker] : [.picker]
            case .textInput: return [.textInput]
            case .inspector: return [.inspector, .list, .global]
            case .filterEditor(let editor):
                switch editor.focus {
                case .builder: return [.filterBuilder, .filterEditor]
                case .text: return [.filterText, .filterEditor]
                case .arguments: return [.filterArguments, .filterEditor]
                }
            case .form: return [.form]
            case .confirm: return [.confirm]
            case .conflict: return [.conflict]
            case .subscriptionDraft: return [.subscriptionDraft]
            case .histogram: return [.histogram, .list]
            case .requestBodies: return [.requestBodies]
            }
        }
        // A local-only tab on a remote has no keys of its own: the hint bar and `?` show the global ones.
        if state.localOnlyReason != nil { return [.global] }
        switch state.tab {
        case .query: return [.query, .list, .global]
        case .fetch: return [.fetch, .list, .global]
        case .changes: return state.changes.mode == .zone ? [.changes, .list, .global] : [.databaseChanges, .list, .global]
        case .zones: return [.zones, .list, .global]
        case .schema: return [.schema, .list, .global]
        case .subscriptions:
            return state.subscriptions.focus == .subscriptions ? [.subscriptions, .list, .global] : [.notifications, .list, .global]
        case .sharing: return [.sharing, .list, .global]
        case .logs: return [.logs, .list, .global]
        case .faults: return [.faults, .list, .global]
        }
    }

    // MARK: - Keys

    static func handleKey(_ state: inout DashboardState, _ key: Key) -> [Effect] {
        let contexts = contexts(state)
        let action = KeyMap.action(for: key, in: contexts)
        if let modal = state.topModal {
            return handleModalKey(&state, modal, key: key, action: action)
        }
        guard let action else { return state.localOnlyReason != nil ? localOnlyKey(&state) : [] }
        if let effects = handleGlobal(&state, action) { return effects }
        if isMovement(action) { return moveInTab(&state, action) }
        if state.localOnlyReason != nil { return localOnlyKey(&state) }
        switch state.tab {
        case .query: return QueryTab.action(&state, action)
        case .fetch: return FetchTab.action(&state, action)
        case .changes: return state.changes.mode == .zone ? ChangesTab.action(&state, action) : ChangesTab.databaseChangesAction(&state, action)
        case .zones: return ZonesTab.action(&state, action)
        case .schema: return SchemaTab.action(&state, action)
        case .subscriptions: return SubscriptionsTab.action(&state, action)
        case .sharing: return SharingTab.action(&state, action)
        case .logs: return LogsTab.action(&state, action)
        case .faults: return FaultsTab.action(&state, action)
        }
    }

    /// Work a tab needs when it is shown.
    static func enteredTab(_ state: inout DashboardState) -> [Effect] {
        if state.localOnlyReason != nil { return [] }
        // The zones watch serves the Zones tab only (the header's zone is read on its own).
        if state.tab != .zones, state.zonesTab.watchJob != nil { return ZonesTab.stopWatching(&state) + enteredTab(&state) }
        switch state.tab {
        case .sharing: return (state.users.isEmpty ? loadUsers(&state) : []) + SharingTab.loadShares(&state)
        case .zones: return ZonesTab.entered(&state)
        case .faults: return FaultsTab.startWatching(&state)
        case .logs: return (state.users.isEmpty ? loadUsers(&state) : []) + LogsTab.startWatching(&state)
        case .subscriptions: return SubscriptionsTab.entered(&state)
        case .query, .fetch, .changes, .schema: return []
        }
    }

    static func copy(_ state: inout DashboardState, _ text: String, what: String) -> [Effect] {
        state.status = StatusMessage("Copied the \(what): \(text)", kind: .success)
        return [.copy(text)]
    }

    static func isMovement(_ action: KeyAction) -> Bool {
        switch action {
        case .up, .down, .pageUp, .pageDown, .top, .bottom: return true
        default: return false
        }
    }

    /// Keys that work the same on every tab (and in the inspector); nil when `action` is not one.
    static func handleGlobal(_ state: inout DashboardState, _ action: KeyAction) -> [Effect]? {
        switch action {
        case .quit:
            state.wantsQuit = true
            return cancelAll(&state) + SubscriptionsTab.stopWatching(&state) + LogsTab.stopWatching(&state) + FaultsTab.stopWatching(&state)
                + ZonesTab.stopWatching(&state) + FaultsTab.stopWatchingPlan(&state)
        case .help:
            state.modals.append(.help(HelpState(contexts: contexts(state), title: helpTitle(state))))
            return []
        case .commandLine:
            state.modals.append(.commandLine(CommandLineState()))
            return []
        case .exportResult:
            return ExportFeature.askExportPath(&state)
        case .undo, .redo:
            return UndoFeature.startUndo(&state, redo: action == .redo)
        case .tab(let tab):
            state.modals.removeAll()
            state.tab = tab
            return Dashboard.enteredTab(&state)
        case .nextTab, .previousTab:
            state.modals.removeAll()
            let all = DashboardTab.allCases
            let index = all.firstIndex(of: state.tab) ?? 0
            state.tab = all[(index + (action == .nextTab ? 1 : all.count - 1)) % all.count]
            return Dashboard.enteredTab(&state)
        case .pickZone:
            openZonePicker(&state)
            return []
        case .pickUser:
            return openUserPicker(&state)
        case .suspend:
            state.wantsSuspend = true
            return []
        case .toggleLens:
            state.coreDataLens = !state.coreDataLensActive
            state.status = StatusMessage(state.coreDataLensActive
                ? "Core Data lens on: the inspector shows CD_ records as their entities, CDMR records as links."
                : "Core Data lens off: records as CloudKit stores them.")
            if case .inspector(let inspector)? = state.topModal, inspector.graph == nil { return Inspector.readGraph(state, inspector.record) }
            return []
        case .pickDatabase:
            let items = DatabaseScope.allCases.map { PickerItem(label: $0.name, detail: $0 == state.scope ? "current" : "") }
            state.modals.append(.picker(PickerState(purpose: AppPick.database, title: "Database", items: items,
                                                    selected: DatabaseScope.allCases.firstIndex(of: state.scope) ?? 0)))
            return []
        case .back:
            if state.topModal != nil {
                state.topModal = nil
                return []
            }
            if state.throttleSecondsLeft != nil {
                state.throttleSecondsLeft = nil
                state.status = StatusMessage("Stopped waiting for the server; the throttled call fails.")
                return [.stopThrottleWait]
            }
            if let job = state.jobs.last(where: { isCancellable($0.kind) }) {
                return cancel(&state, job: job.id)
            }
            state.status = nil
            return []
        case .interrupt:
            if state.jobs.contains(where: { isCancellable($0.kind) }) {
                return cancelAll(&state)
            }
            state.wantsQuit = true
            return SubscriptionsTab.stopWatching(&state)
        case .search:
            state.modals.append(.textInput(TextInputState(purpose: SearchEntry(), title: "Search the loaded rows",
                                                          hint: "text to find; Enter finds the next match",
                                                          text: state.lastSearch ?? "")))
            return []
        default:
            return nil
        }
    }

    static func helpTitle(_ state: DashboardState) -> String {
        if let modal = state.topModal, case .inspector = modal { return "Inspector" }
        return state.tab.title + " tab"
    }

    static func isCancellable(_ kind: JobInfo.Kind) -> Bool {
        switch kind {
        case .query, .fetch, .changes, .databaseChanges, .loadRecord, .zones, .subscriptions, .export, .bulkDelete, .histogram: return true
        default: return false
        }
    }

    // MARK: - Jobs

    static func cancel(_ state: inout DashboardState, job id: Int) -> [Effect] {
        guard let job = state.job(id) else { return [] }
        state.endJob(id)
        switch job.kind {
        case .changes:
            state.changes.job = nil
            state.changes.cancelled = true
            let resume = state.changes.token.map { "; resume from token \(abbreviated($0))" } ?? ""
            state.status = StatusMessage("Cancelled the playback after \(state.changes.eventCount) events\(resume).")
        case .query where state.query.tailJob == id:
            state.query.tailJob = nil
            state.query.wantsLast = false
            state.status = StatusMessage("Stopped going to the last record.")
        case .query:
            state.query.loadingJob = nil
            state.status = StatusMessage("Cancelled the query; \(state.query.loadedCount) records loaded.")
        case .fetch:
            state.fetch.job = nil
            state.status = StatusMessage("Cancelled the fetch after \(state.fetch.done) of \(state.fetch.total) records.")
        case .databaseChanges:
            state.status = StatusMessage("Cancelled.")
        case .export:
            state.status = StatusMessage("Cancelled the export; nothing was written.")
        case .bulkDelete where job.label.hasPrefix("count"):
            state.status = StatusMessage("Cancelled; nothing was deleted.")
        case .bulkDelete:
            // A batch may be under way: the count and the rows are made true when it ends
            // (``bulkDeleteStopped``).
            state.query.stoppingBulkDelete = id
            state.status = StatusMessage("Stopping the bulk delete after the batch under way (\(state.query.bulkDeleted.formatted()) deleted so far)…")
        default:
            state.status = StatusMessage("Cancelled \(job.label).")
        }
        return [.cancel(job: id)]
    }

    static func cancelAll(_ state: inout DashboardState) -> [Effect] {
        state.jobs.filter { isCancellable($0.kind) }.flatMap { cancel(&state, job: $0.id) }
    }

    static func abbreviated(_ token: String) -> String {
        token.count <= 24 ? token : String(token.prefix(12)) + "…" + String(token.suffix(8))
    }

    // MARK: - Database and zone

    static func loadZones(_ state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.zones, "zones")
        return [.zones(.load(job: job, scope: state.scope))]
    }

    static func openZonePicker(_ state: inout DashboardState) {
        let items = state.zones.map { zone in
            PickerItem(label: zone.zoneID.zoneName, detail: "\(zone.recordCount) records", value: zone.zoneID.zoneName)
        }
        let selected = state.zones.firstIndex { $0.zoneID == state.zone } ?? 0
        state.modals.append(.picker(PickerState(purpose: AppPick.zone, title: "Zone (\(state.scope.name) database)", items: items, selected: selected)))
    }

    static func switchZone(_ state: inout DashboardState, to name: String) -> [Effect] {
        switchZone(&state, to: state.zones.first { $0.zoneID.zoneName == name }?.zoneID ?? ZoneID(zoneName: name))
    }

    static func switchZone(_ state: inout DashboardState, to zoneID: ZoneID) -> [Effect] {
        guard zoneID != state.zone else { return [] }
        state.zone = zoneID
        state.status = StatusMessage("Zone \(zoneID.zoneName) (\(state.scope.name) database).")
        return resetResults(&state) + checkRecordType(&state)
    }

    /// The zone's record counts decide the type (``QueryTab/receive(_:_:)``'s `recordCountsLoaded`): the
    /// type in use stays when the zone has records of it, else its busiest type; with none in
    /// use yet, the busiest.
    static func checkRecordType(_ state: inout DashboardState) -> [Effect] {
        let job = state.startJob(.recordCounts, "records by type")
        state.query.recordCountsJob = job
        state.query.typeKeptOnZoneSwitch = state.query.recordType
        return [.query(.recordCounts(job: job, zone: state.zone, scope: state.scope))]
    }

    /// Opening a database without a zone named: the zone in use when it holds records, else
    /// the one with the most records the user can read (a shared database has no default zone).
    static func settleOnBusiestZone(_ state: inout DashboardState) -> [Effect] {
        state.settlesOnBusiestZone = false
        let current = state.zones.first { $0.zoneID == state.zone }
        guard (current?.recordCount ?? 0) == 0,
              let busiest = state.zones.max(by: { $0.recordCount < $1.recordCount }), busiest.recordCount > 0,
              busiest.zoneID != state.zone else {
            return state.query.recordType == nil ? [] : checkRecordType(&state)
        }
        // Said after what opened the database (Act As, `:db`), which stays on the line.
        let opened = state.status.flatMap { $0.kind == .error ? nil : $0.text }
        let why = current.map { "nothing in \($0.zoneID.zoneName)" } ?? "no \(state.zone == .default ? "default zone" : "zone \(state.zone.zoneName)") here"
        let effects = switchZone(&state, to: busiest.zoneID)
        state.status = StatusMessage((opened.map { $0 + " " } ?? "")
            + "Showing \(busiest.zoneID.zoneName), the zone with the most records (\(why)).")
        return effects
    }

    static func switchScope(_ state: inout DashboardState, to scope: DatabaseScope) -> [Effect] {
        guard scope != state.scope else { return [] }
        state.scope = scope
        state.status = StatusMessage("The \(scope.name) database, zone \(ZoneID.defaultZoneName).")
        return seeDatabaseAnew(&state)
    }

    /// Another database, or the same one as another user: back to its default zone, with its
    /// zones, results and subscriptions read again.
    static func seeDatabaseAnew(_ state: inout DashboardState) -> [Effect] {
        state.zone = .default
        state.zones = []
        // When the zones arrive: the busiest one the user can read, if the default has nothing.
        state.settlesOnBusiestZone = true
        var effects = SubscriptionsTab.stopWatching(&state) + ZonesTab.stopWatching(&state)
        state.subscriptions = SubscriptionsTabState()
        effects += resetResults(&state) + loadZones(&state)
        if state.tab == .subscriptions || state.tab == .sharing || state.tab == .zones { effects += Dashboard.enteredTab(&state) }
        return effects
    }

    /// Clears what belonged to the old zone and runs the query again.
    static func resetResults(_ state: inout DashboardState) -> [Effect] {
        var effects = cancelAll(&state)
        state.modals.removeAll()
        state.fetch.rows = []
        state.fetch.list = ListCursor()
        state.changes.events = []
        state.changes.eventCount = 0
        state.changes.token = nil
        state.changes.since = ""
        state.changes.finished = false
        state.changes.databaseEvents = []
        state.query.clearResults()
        if state.query.recordType != nil { effects += QueryTab.runQuery(&state) }
        return effects
    }


    // MARK: - Paste

    static func handlePaste(_ state: inout DashboardState, _ text: String) -> [Effect] {
        if let modal = state.topModal {
            switch modal {
            case .textInput(var input):
                input.field.insert(text)
                state.topModal = .textInput(input)
            case .commandLine(var line):
                line.field.insert(text)
                state.topModal = .commandLine(line)
            case .filterEditor(var editor):
                if editor.focus == .arguments, editor.argumentRows.indices.contains(editor.argumentRow) {
                    editor.argumentRows[editor.argumentRow].field.insert(text)
                    return FilterEditor.checkFilter(&state, editor)
                }
                editor.focus = .text
                editor.text.insert(text)
                state.topModal = .filterEditor(editor)
                return FilterEditor.filterTextChanged(&state)
            case .form(var form):
                let index = form.list.selected - form.rowOffset
                if index < 0 {
                    form.nameField.insert(text)
                } else if !form.rows[index].readOnly {
                    form.rows[index].field.insert(text)
                }
                state.topModal = .form(form)
            default:
                break
            }
            return []
        }
        switch state.tab {
        case .fetch:
            state.modals.append(.textInput(TextInputState(purpose: FetchNamesEntry(), title: "Record names",
                                                          hint: "separated by spaces, commas or lines", text: FetchTabState.parseNames(text).joined(separator: " "))))
        case .changes:
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if state.changes.mode == .zone { state.changes.since = token } else { state.changes.databaseSince = token }
            state.status = StatusMessage("Start token set from the paste; r plays back from it.")
        default:
            break
        }
        return []
    }
}

extension DashboardState {
    mutating func startJob(_ kind: JobInfo.Kind, _ label: String) -> Int {
        let id = nextJobID
        nextJobID += 1
        jobs.append(JobInfo(id: id, kind: kind, label: label))
        return id
    }

    mutating func endJob(_ id: Int) {
        jobs.removeAll { $0.id == id }
    }
}
