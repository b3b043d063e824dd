import StratusTerminal

/// The mouse: a click on a tab opens it, on a hint presses its key, on a row selects it (on
/// the selected row, opens it, as Enter); the wheel moves three rows. Keys stay the way to do
/// everything; the mouse is a shortcut to the same actions.
extension Dashboard {
    static let wheelRows = 3

    static func handleMouse(_ state: inout DashboardState, _ event: MouseEvent) -> [Effect] {
        switch event.kind {
        case .wheelUp, .wheelDown:
            let key: Key = event.kind == .wheelUp ? .up : .down
            return (0..<wheelRows).flatMap { _ in handleKey(&state, key) }
        case .press:
            if event.y == 1, let tab = DashboardView.tabLayout(state, width: state.size.width).first(where: { $0.x.contains(event.x) })?.tab {
                return handleKey(&state, .char(Character(String(tab.rawValue))))
            }
            if event.y == state.size.height - 2,
               let hint = DashboardView.hintLayout(state, width: state.size.width).first(where: { $0.x.contains(event.x) }), let key = hint.binding.keys.first {
                return handleKey(&state, key)
            }
            guard state.modals.isEmpty, let row = listRow(state, y: event.y) else { return [] }
            let (count, visible) = listCount(state)
            guard row < count else { return [] }
            if row == selectedRow(state) { return handleKey(&state, .enter) }
            setSelectedRow(&state, row, count: count, visible: visible)
            return state.tab == .query ? QueryTab.loadMoreIfNeeded(&state) : (state.tab == .zones ? ZonesTab.zoneBars(&state) : [])
        }
    }

    /// The list row at screen row `y`, in the tabs whose list is one table under a header.
    static func listRow(_ state: DashboardState, y: Int) -> Int? {
        let firstRow: Int
        switch state.tab {
        case .query, .fetch: firstRow = 3
        case .changes: firstRow = 4
        case .zones, .schema, .logs: firstRow = 1
        case .faults: firstRow = 2
        case .subscriptions, .sharing: return nil
        }
        let bodyY = y - Layout.body(state.size).y
        let (_, visible) = listCount(state)
        guard bodyY >= firstRow, bodyY < firstRow + visible else { return nil }
        return listOffset(state) + bodyY - firstRow
    }

    /// The current tab's list, for the tabs whose list is one table.
    static func listCursor(_ state: DashboardState) -> WritableKeyPath<DashboardState, ListCursor>? {
        switch state.tab {
        case .query: return \.query.list
        case .fetch: return \.fetch.list
        case .changes: return state.changes.mode == .zone ? \.changes.list : \.changes.databaseList
        case .zones: return \.zonesTab.list
        case .schema: return \.schemaTab.list
        case .logs: return \.logs.list
        case .faults: return \.faults.list
        case .subscriptions, .sharing: return nil
        }
    }

    static func selectedRow(_ state: DashboardState) -> Int {
        listCursor(state).map { state[keyPath: $0].selected } ?? -1
    }

    private static func listOffset(_ state: DashboardState) -> Int {
        listCursor(state).map { state[keyPath: $0].offset } ?? 0
    }

    private static func setSelectedRow(_ state: inout DashboardState, _ row: Int, count: Int, visible: Int) {
        guard let cursor = listCursor(state) else { return }
        state[keyPath: cursor].move(to: row, count: count, visible: visible)
    }
}
