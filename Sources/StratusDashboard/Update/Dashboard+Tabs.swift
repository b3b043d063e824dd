import Foundation
import StratusEngine
import StratusModel

extension Dashboard {
    // MARK: - Fetch

    static func fetchAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .editNames:
            state.modals.append(.textInput(TextInputState(
                purpose: .fetchNames, title: "Record names to fetch from \(state.zone.zoneName)",
                hint: "separated by spaces, commas or lines (paste works)", text: state.fetch.names.joined(separator: " "))))
        case .fields:
            let names = Set(state.pickableTypes.flatMap { $0.fields.keys })
            let items = names.sorted().map { name in PickerItem(label: name, checked: state.fetch.desiredKeys.map { $0.contains(name) } ?? true) }
            state.modals.append(.picker(PickerState(purpose: .fetchKeys, title: "Fields to fetch (none checked: system fields only)",
                                                    items: items, multiple: true)))
        case .run:
            return runFetch(&state)
        case .open:
            let index = state.fetch.list.selected
            guard state.fetch.rows.indices.contains(index), let record = state.fetch.rows[index].record else { return [] }
            return openInspector(&state, record: record, partial: state.fetch.desiredKeys != nil)
        case .copy:
            let index = state.fetch.list.selected
            guard state.fetch.rows.indices.contains(index) else { return [] }
            return copy(&state, state.fetch.rows[index].recordName, what: "record name")
        default:
            break
        }
        return []
    }

    static func runFetch(_ state: inout DashboardState) -> [Effect] {
        guard !state.fetch.names.isEmpty else {
            state.modals.append(.textInput(TextInputState(
                purpose: .fetchNames, title: "Record names to fetch from \(state.zone.zoneName)",
                hint: "separated by spaces, commas or lines (paste works)")))
            return []
        }
        var effects: [Effect] = []
        if let running = state.fetch.job {
            effects += cancel(&state, job: running)
        }
        let job = state.startJob(.fetch, "fetch \(state.fetch.names.count) records")
        state.fetch.job = job
        state.fetch.done = 0
        state.fetch.total = state.fetch.names.count
        effects.append(.fetch(job: job, names: state.fetch.names, desiredKeys: state.fetch.desiredKeys, zone: state.zone, scope: state.scope))
        return effects
    }

    // MARK: - Changes

    static func changesAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .run:
            return playChanges(&state)
        case .editToken:
            state.modals.append(.textInput(TextInputState(
                purpose: .changesToken, title: "Start token for \(state.zone.zoneName)",
                hint: "empty plays back from the beginning; paste a token to start after it", text: state.changes.since)))
        case .currentToken:
            let job = state.startJob(.token, "current token")
            return [.currentToken(job: job, zone: state.zone, scope: state.scope)]
        case .copy:
            guard let token = state.changes.token else {
                state.status = StatusMessage("No token yet: r plays back changes, t takes the current token.", kind: .error)
                return []
            }
            return copy(&state, token, what: "token")
        case .bookmark:
            guard let token = state.changes.token else {
                state.status = StatusMessage("No token to bookmark yet.", kind: .error)
                return []
            }
            let count = state.preferences.bookmarks.filter { $0.zone == state.zone.zoneName && $0.scope == state.scope.name }.count
            let label = "\(state.zone.zoneName) #\(count + 1) after \(state.changes.eventCount) events"
            state.preferences.bookmarks.append(TokenBookmark(label: label, scope: state.scope.name, zone: state.zone.zoneName, token: token))
            state.status = StatusMessage("Bookmarked the token as \"\(label)\"; b starts from a bookmark.", kind: .success)
            return [.savePreferences(state.preferences)]
        case .bookmarks:
            let marks = state.preferences.bookmarks.filter { $0.zone == state.zone.zoneName && $0.scope == state.scope.name }
            guard !marks.isEmpty else {
                state.status = StatusMessage("No bookmarks for \(state.zone.zoneName) yet: m bookmarks the token shown.", kind: .error)
                return []
            }
            let items = marks.map { PickerItem(label: $0.label, detail: abbreviated($0.token), value: $0.token) }
            state.modals.append(.picker(PickerState(purpose: .bookmark, title: "Start from a bookmark", items: items)))
        case .changesKeys:
            let names = Set(state.pickableTypes.flatMap { $0.fields.keys })
            let keysMode = state.changes.keys
            let checked: (String) -> Bool = { name in
                switch keysMode {
                case .all: return true
                case .none: return false
                case .some(let keys): return keys.contains(name)
                }
            }
            let items = names.sorted().map { PickerItem(label: $0, checked: checked($0)) }
            state.modals.append(.picker(PickerState(purpose: .changesKeys,
                                                    title: "Desired keys (none checked: metadata only; a: all)", items: items, multiple: true)))
        case .pageSize:
            let sizes = [50, 200, 1000, 5000]
            let items = sizes.map { PickerItem(label: "\($0) changes per page", value: "\($0)") }
            state.modals.append(.picker(PickerState(purpose: .changesPageSize, title: "Page size", items: items,
                                                    selected: sizes.firstIndex(of: state.changes.pageSize) ?? 1)))
        case .playbackOrder:
            let orders = PlaybackOrder.allCases
            let items = orders.map { PickerItem(label: ChangesTabView.orderLabel($0), value: $0.rawValue) }
            state.modals.append(.picker(PickerState(purpose: .changesOrder, title: "Order within each page", items: items,
                                                    selected: orders.firstIndex(of: state.changes.order) ?? 0)))
        case .compact:
            return compactionPicker(&state)
        case .toggleChangesView:
            state.changes.mode = .database
        case .open:
            let index = state.changes.list.selected
            guard state.changes.events.indices.contains(index) else { return [] }
            let event = state.changes.events[index]
            guard event.kind == .changed else {
                state.status = StatusMessage("\(event.recordName) was deleted.", kind: .error)
                return []
            }
            let job = state.startJob(.loadRecord, "record \(event.recordName)")
            return [.loadRecord(job: job, recordID: RecordID(recordName: event.recordName, zoneID: state.zone), scope: state.scope,
                                purpose: .openInspector)]
        default:
            break
        }
        return []
    }

    static func playChanges(_ state: inout DashboardState) -> [Effect] {
        var effects: [Effect] = []
        if let running = state.changes.job { effects += cancel(&state, job: running) }
        let job = state.startJob(.changes, "changes of \(state.zone.zoneName)")
        state.changes.job = job
        state.changes.events = []
        state.changes.eventCount = 0
        state.changes.pages = 0
        state.changes.token = nil
        state.changes.finished = false
        state.changes.cancelled = false
        state.changes.elapsed = 0
        state.changes.list = ListCursor()
        let since = state.changes.since.trimmingCharacters(in: .whitespacesAndNewlines)
        effects.append(.playChanges(job: job, zone: state.zone, scope: state.scope, since: since.isEmpty ? nil : since,
                                    desiredKeys: state.changes.keys.desiredKeys, pageSize: state.changes.pageSize, order: state.changes.order))
        effects.append(.loadOldestToken(zone: state.zone, scope: state.scope))
        return effects
    }

    static func databaseChangesAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .run:
            let job = state.startJob(.databaseChanges, "database changes")
            let since = state.changes.databaseSince.trimmingCharacters(in: .whitespacesAndNewlines)
            return [.databaseChanges(job: job, scope: state.scope, since: since.isEmpty ? nil : since)]
        case .editToken:
            state.modals.append(.textInput(TextInputState(
                purpose: .databaseToken, title: "Database token (\(state.scope.name))",
                hint: "empty lists every zone ever changed", text: state.changes.databaseSince)))
        case .currentToken:
            let job = state.startJob(.token, "current database token")
            return [.currentToken(job: job, zone: nil, scope: state.scope)]
        case .copy:
            guard let token = state.changes.databaseToken else {
                state.status = StatusMessage("No database token yet: r lists changes, t takes the current token.", kind: .error)
                return []
            }
            return copy(&state, token, what: "database token")
        case .toggleChangesView:
            state.changes.mode = .zone
        case .open:
            let index = state.changes.databaseList.selected
            guard state.changes.databaseEvents.indices.contains(index) else { return [] }
            let event = state.changes.databaseEvents[index]
            guard event.kind == "changed" else { return [] }
            var effects = switchZone(&state, to: event.zone.zoneName)
            state.tab = .changes
            state.changes.mode = .zone
            effects += playChanges(&state)
            return effects
        default:
            break
        }
        return []
    }

    // MARK: - Schema

    static func schemaAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .open where state.schemaDiff != nil:
            return []
        case .open:
            let lines = SchemaLines.lines(state)
            guard lines.indices.contains(state.schemaList.selected) else { return [] }
            let line = lines[state.schemaList.selected]
            guard line.kind != .role, line.kind != .rolesHeading else {
                state.status = StatusMessage("Roles are not record types; grants name them (x exports the schema).")
                return []
            }
            let type = line.recordType
            guard type != "Users" else {
                state.status = StatusMessage("Users records cannot be queried (CloudKit's rule).", kind: .error)
                return []
            }
            state.tab = .query
            guard type != state.query.recordType else { return [] }
            var picker = PickerState(purpose: .recordType, title: "", items: [PickerItem(label: type)])
            picker.list.selected = 0
            return pickedForQuery(&state, .recordType, picker)
        case .run:
            let job = state.startJob(.schema, "schema")
            return [.loadSchema(job: job)]
        case .diffSchema:
            if state.schemaDiff != nil {
                state.schemaDiff = nil
                state.schemaList = ListCursor()
                return []
            }
            state.modals.append(.textInput(TextInputState(purpose: .schemaDiffPath, title: "Compare the schema with",
                                                          hint: "a .ckdb file or another store (say production's)",
                                                          text: defaultSchemaExportPath(state))))
            return []
        case .export:
            state.modals.append(.textInput(TextInputState(purpose: .schemaExportPath, title: "Export the schema to",
                                                          hint: "a file path; cktool's .ckdb text (roles, types, grants)",
                                                          text: defaultSchemaExportPath(state))))
            return []
        default:
            return []
        }
    }
}
