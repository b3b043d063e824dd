import StratusCloud
import StratusModel

/// Moving in each tab's list, keeping lists inside their rows, and `/` search.
extension Dashboard {
    static func listCount(_ state: DashboardState) -> (count: Int, visible: Int) {
        switch state.tab {
        case .query: return (state.query.rowCount, Layout.queryRows(state.size))
        case .fetch: return (state.fetch.rows.count, Layout.fetchRows(state.size))
        case .changes:
            return state.changes.mode == .zone
                ? (state.changes.events.count, Layout.changesRows(state.size))
                : (state.changes.databaseEvents.count, Layout.changesRows(state.size))
        case .zones: return (state.zones.count, Layout.zonesRows(state.size))
        case .schema: return (SchemaLines.lines(state).count, Layout.schemaRows(state.size))
        case .subscriptions:
            return state.subscriptions.focus == .subscriptions
                ? (state.subscriptions.subscriptions.count, Layout.subscriptionRows(state.size))
                : (state.subscriptions.notifications.count, Layout.notificationRows(state.size))
        case .sharing: return (state.sharing.rows.count, Layout.zonesRows(state.size))
        case .logs: return (state.logs.entries.count, Layout.zonesRows(state.size))
        case .faults: return (state.faults.faults.count, Layout.faultRows(state.size))
        }
    }

    static func move(_ cursor: inout ListCursor, _ action: KeyAction, count: Int, visible: Int) {
        switch action {
        case .up: cursor.move(by: -1, count: count, visible: visible)
        case .down: cursor.move(by: 1, count: count, visible: visible)
        case .pageUp: cursor.move(by: -visible, count: count, visible: visible)
        case .pageDown: cursor.move(by: visible, count: count, visible: visible)
        case .top: cursor.move(to: 0, count: count, visible: visible)
        case .bottom: cursor.move(to: count - 1, count: count, visible: visible)
        default: break
        }
    }

    /// The list the current tab moves and searches in (the Changes and Subscriptions tabs
    /// have two, and their focus says which).
    static func focusedList(_ state: DashboardState) -> WritableKeyPath<DashboardState, ListCursor> {
        switch state.tab {
        case .query: \.query.list
        case .fetch: \.fetch.list
        case .changes: state.changes.mode == .zone ? \.changes.list : \.changes.databaseList
        case .zones: \.zonesTab.list
        case .schema: \.schemaTab.list
        case .subscriptions: state.subscriptions.focus == .subscriptions ? \.subscriptions.list : \.subscriptions.notificationList
        case .sharing: \.sharing.list
        case .logs: \.logs.list
        case .faults: \.faults.list
        }
    }

    static func moveInTab(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        if state.tab == .query {
            if state.query.tail != nil { return QueryTab.moveInTail(&state, action) }
            if action == .bottom, state.query.matchCount == nil, state.query.mapJob != nil {
                return QueryTab.goToLast(&state)
            }
        }
        let (count, visible) = listCount(state)
        let list = focusedList(state)
        move(&state[keyPath: list], action, count: count, visible: visible)
        switch state.tab {
        case .query: return QueryTab.loadMoreIfNeeded(&state)
        case .zones: return ZonesTab.zoneBars(&state)
        default: return []
        }
    }

    static func clampLists(_ state: inout DashboardState) {
        let size = state.size
        state.query.list.clamp(count: state.query.rowCount, visible: Layout.queryRows(size))
        state.fetch.list.clamp(count: state.fetch.rows.count, visible: Layout.fetchRows(size))
        state.changes.list.clamp(count: state.changes.events.count, visible: Layout.changesRows(size))
        state.changes.databaseList.clamp(count: state.changes.databaseEvents.count, visible: Layout.changesRows(size))
        state.zonesTab.list.clamp(count: state.zones.count, visible: Layout.zonesRows(size))
        state.schemaTab.list.clamp(count: SchemaLines.lines(state).count, visible: Layout.schemaRows(size))
        state.subscriptions.list.clamp(count: state.subscriptions.subscriptions.count, visible: Layout.subscriptionRows(size))
        state.subscriptions.notificationList.clamp(count: state.subscriptions.notifications.count, visible: Layout.notificationRows(size))
        state.sharing.list.clamp(count: state.sharing.rows.count, visible: Layout.zonesRows(size))
    }

    /// Texts of the current list's rows in memory, for `/` search, and the row number of the
    /// first (the Query tab keeps a window of its results).
    static func searchTexts(_ state: DashboardState) -> (texts: [String], first: Int) {
        switch state.tab {
        case .query:
            let columns = QueryColumns.columns(schema: state.currentSchema, desiredKeys: state.query.desiredKeys)
            let rows = state.query.tail ?? state.query.records
            let texts = rows.map { record in columns.map { QueryColumns.cell(record, column: $0) }.joined(separator: " ") }
            return (texts, state.query.tail == nil ? state.query.windowStart : 0)
        case .fetch: return (state.fetch.rows.map { "\($0.recordName) \($0.record?.recordType ?? "")" }, 0)
        case .changes:
            return (state.changes.mode == .zone
                ? state.changes.events.map { "\($0.kind.rawValue) \($0.recordType) \($0.recordName) \($0.fields.joined(separator: " "))" }
                : state.changes.databaseEvents.map { "\($0.kind) \($0.zone.zoneName)" }, 0)
        case .zones: return (state.zones.map { $0.zoneID.zoneName }, 0)
        case .schema: return (SchemaLines.lines(state).map { "\($0.recordType) \($0.field ?? "") \($0.type) \($0.indexes)" }, 0)
        case .subscriptions:
            return (state.subscriptions.focus == .subscriptions
                ? state.subscriptions.subscriptions.map { "\($0.subscriptionID) \($0.subscriptionType.name) \($0.recordType ?? "") \(SubscriptionText.predicate($0))" }
                : state.subscriptions.notifications.map { "\(SubscriptionText.reason($0)) \($0.recordType ?? "") \($0.recordID?.recordName ?? "") \($0.subscriptionID)" }, 0)
        case .sharing: return (state.sharing.rows.map(SharingTabView.text), 0)
        case .logs: return (state.logs.entries.map { LogsTabView.text($0, users: state.users) }, 0)
        case .faults: return (state.faults.faults.map { "#\($0.id) \($0.summary)" }, 0)
        }
    }

    static func search(_ state: inout DashboardState, for text: String) -> [Effect] {
        state.lastSearch = text
        guard !text.isEmpty else { return [] }
        let (texts, first) = searchTexts(state)
        let (count, visible) = listCount(state)
        let current: Int
        switch state.tab {
        case .query: current = state.query.list.selected
        case .fetch: current = state.fetch.list.selected
        case .changes: current = state.changes.mode == .zone ? state.changes.list.selected : state.changes.databaseList.selected
        case .zones: current = state.zonesTab.list.selected
        case .schema: current = state.schemaTab.list.selected
        case .subscriptions:
            current = state.subscriptions.focus == .subscriptions ? state.subscriptions.list.selected : state.subscriptions.notificationList.selected
        case .sharing: current = state.sharing.list.selected
        case .logs: current = state.logs.list.selected
        case .faults: current = state.faults.list.selected
        }
        guard !texts.isEmpty else { return [] }
        let needle = text.lowercased()
        for step in 1...texts.count {
            let index = first + ((current - first + step) % texts.count + texts.count) % texts.count
            guard texts[index - first].lowercased().contains(needle) else { continue }
            let list = focusedList(state)
            state[keyPath: list].move(to: index, count: count, visible: visible)
            state.status = StatusMessage("\"\(text)\" found in row \(ViewKit.count(index + 1)) of \(ViewKit.count(count)).")
            return []
        }
        state.status = StatusMessage("No loaded row matches \"\(text)\".", kind: .error)
        return []
    }
}
