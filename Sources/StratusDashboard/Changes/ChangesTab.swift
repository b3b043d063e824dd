import Foundation
import StratusEngine
import StratusModel
import StratusCloud

/// The Changes tab: a zone's change feed played back from a token (or the database's), with
/// bookmarks, desired keys and the history line.
enum ChangesTab {
    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .run:
            return play(&state)
        case .editToken:
            state.modals.append(.textInput(TextInputState(
                purpose: ChangesTokenEntry.zone, title: "Start token for \(state.zone.zoneName)",
                hint: "empty plays back from the beginning; paste a token to start after it", text: state.changes.since)))
        case .currentToken:
            let job = state.startJob(.token, "current token")
            return [.changes(.currentToken(job: job, zone: state.zone, scope: state.scope))]
        case .copy:
            guard let token = state.changes.token else {
                state.status = StatusMessage("No token yet: r plays back changes, t takes the current token.", kind: .error)
                return []
            }
            return Dashboard.copy(&state, token, what: "token")
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
            // Each is checked against the zone's history first, so an expired one says so.
            let job = state.startJob(.token, "check bookmarks")
            return [.changes(.checkBookmarks(job: job, zone: state.zone, scope: state.scope, tokens: marks.map(\.token)))]
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
            state.modals.append(.picker(PickerState(purpose: ChangesPick.keys,
                                                    title: "Desired keys (none checked: metadata only; a: all)", items: items, multiple: true)))
        case .pageSize:
            let sizes = [50, 200, 1000, 5000]
            let items = sizes.map { PickerItem(label: "\($0) changes per page", value: "\($0)") }
            state.modals.append(.picker(PickerState(purpose: ChangesPick.pageSize, title: "Page size", items: items,
                                                    selected: sizes.firstIndex(of: state.changes.pageSize) ?? 1)))
        case .playbackOrder:
            let orders = PlaybackOrder.allCases
            let items = orders.map { PickerItem(label: ChangesTabView.orderLabel($0), value: $0.rawValue) }
            state.modals.append(.picker(PickerState(purpose: ChangesPick.order, title: "Order within each page", items: items,
                                                    selected: orders.firstIndex(of: state.changes.order) ?? 0)))
        case .compact:
            return FaultsTab.compactionPicker(&state)
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
            return [.record(.load(job: job, recordID: RecordID(recordName: event.recordName, zoneID: state.zone), scope: state.scope,
                                purpose: .openInspector))]
        default:
            break
        }
        return []
    }

    static func play(_ state: inout DashboardState) -> [Effect] {
        var effects: [Effect] = []
        if let running = state.changes.job { effects += Dashboard.cancel(&state, job: running) }
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
        effects.append(.changes(.play(job: job, zone: state.zone, scope: state.scope, since: since.isEmpty ? nil : since,
                                    desiredKeys: state.changes.keys.desiredKeys, pageSize: state.changes.pageSize, order: state.changes.order)))
        effects.append(.faults(.oldestToken(zone: state.zone, scope: state.scope)))
        return effects
    }

    static func databaseChangesAction(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .run:
            let job = state.startJob(.databaseChanges, "database changes")
            let since = state.changes.databaseSince.trimmingCharacters(in: .whitespacesAndNewlines)
            return [.changes(.database(job: job, scope: state.scope, since: since.isEmpty ? nil : since))]
        case .editToken:
            state.modals.append(.textInput(TextInputState(
                purpose: ChangesTokenEntry.database, title: "Database token (\(state.scope.name))",
                hint: "empty lists every zone ever changed", text: state.changes.databaseSince)))
        case .currentToken:
            let job = state.startJob(.token, "current database token")
            return [.changes(.currentToken(job: job, zone: nil, scope: state.scope))]
        case .copy:
            guard let token = state.changes.databaseToken else {
                state.status = StatusMessage("No database token yet: r lists changes, t takes the current token.", kind: .error)
                return []
            }
            return Dashboard.copy(&state, token, what: "database token")
        case .toggleChangesView:
            state.changes.mode = .zone
        case .open:
            let index = state.changes.databaseList.selected
            guard state.changes.databaseEvents.indices.contains(index) else { return [] }
            let event = state.changes.databaseEvents[index]
            guard event.kind == "changed" else { return [] }
            var effects = Dashboard.switchZone(&state, to: event.zone.zoneName)
            state.tab = .changes
            state.changes.mode = .zone
            effects += play(&state)
            return effects
        default:
            break
        }
        return []
    }

    /// The Changes tab's playback pages, database changes, tokens, and the zone's activity and oldest token.
    static func receive(_ state: inout DashboardState, _ message: ChangesMessage) -> [Effect] {
        switch message {
        case .page(let job, let events, let count, let pages, let token, let moreComing, let elapsed):
            guard state.changes.job == job else { return [] }
            let room = max(0, ChangesTabState.maximumKept - state.changes.events.count)
            state.changes.events += events.prefix(room)
            state.changes.eventCount += count
            state.changes.pages += pages
            state.changes.token = token
            state.changes.moreComing = moreComing
            state.changes.elapsed = elapsed
            if !moreComing {
                state.endJob(job)
                state.changes.job = nil
                state.changes.finished = true
                state.status = StatusMessage(String(format: "%@ in %@, %.2f s. y copies the final token, m bookmarks it.",
                                                    ViewKit.count(state.changes.eventCount, "event"), ViewKit.count(state.changes.pages, "page"), elapsed),
                                             kind: .success)
            }
            state.changes.list.clamp(count: state.changes.events.count, visible: Layout.changesRows(state.size))
            return []

        case .failed(let job, let error):
            guard state.changes.job == job else { return [] }
            state.endJob(job)
            state.changes.job = nil
            state.status = .error(error)
            return []

        case .database(let job, let result):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let summary):
                state.changes.databaseEvents = summary.events
                state.changes.databaseToken = summary.token
                state.changes.databaseList = ListCursor()
                state.status = StatusMessage("\(summary.events.count) zones changed. y copies the token.", kind: .success)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .bookmarksChecked(let job, let expired):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            let marks = state.preferences.bookmarks.filter { $0.zone == state.zone.zoneName && $0.scope == state.scope.name }
            guard !marks.isEmpty else { return [] }
            let items = marks.map { mark in
                expired.contains(mark.token)
                    ? PickerItem(label: mark.label + " (expired)", detail: "compacted history: playback from it fails with changeTokenExpired", value: mark.token)
                    : PickerItem(label: mark.label, detail: Dashboard.abbreviated(mark.token), value: mark.token)
            }
            state.modals.append(.picker(PickerState(purpose: ChangesPick.bookmark, title: "Start from a bookmark", items: items)))
            return []

        case .token(let job, let result, let database):
            guard state.job(job) != nil else { return [] }
            state.endJob(job)
            switch result {
            case .success(let token):
                if database {
                    state.changes.databaseToken = token
                    state.status = StatusMessage("Current \(state.scope.name) database token: \(token)", kind: .success)
                } else {
                    state.changes.token = token
                    state.changes.events = []
                    state.changes.eventCount = 0
                    state.changes.pages = 0
                    state.changes.finished = true
                    state.changes.cancelled = false
                    state.status = StatusMessage("Current token of \(state.zone.zoneName) (no playback): \(token)", kind: .success)
                }
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .activity(let zone, let result):
            if case .success(let counts) = result, zone == state.zone { state.changes.activity = (zone, counts) }
            return []

        case .oldestToken(let zone, let result):
            if case .success(let loaded) = result, zone == state.zone { state.changes.oldestValidToken = (zone, loaded.token, loaded.compacted) }
            return []
        }
    }
}
