import StratusTerminal

/// The Fetch tab: record names and desired keys, progress, and a row per name.
enum FetchTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let fetch = state.fetch
        let width = canvas.width
        var x = 1
        let names = fetch.names.isEmpty ? "none yet (paste or type them)" : fetch.names.joined(separator: " ")
        x += canvas.put("Names", x: x, y: 0, style: theme[.dim])
        x += canvas.put(" (i) ", x: x, y: 0, style: theme[.hintKey].adding(.dim))
        canvas.put(names, x: x, y: 0, style: theme[.title], maxWidth: width - x - 1)
        x = 1
        let keys = fetch.desiredKeys.map { $0.isEmpty ? "system fields only" : $0.joined(separator: ", ") } ?? "all"
        x += ViewKit.labeled(&canvas, x: x, y: 1, label: "Fields", value: keys, key: "c", theme: theme, maxWidth: width / 2) + 3
        canvas.put(progressText(fetch), x: x, y: 1, style: theme[.accent], maxWidth: width - x - 1)

        let table = Rect(x: 1, y: 2, width: width - 2, height: canvas.height - 2)
        if fetch.rows.isEmpty {
            canvas.put("i: names to fetch (spaces, commas or lines), then r. Records of any type, from zone \(state.zone.zoneName).",
                       x: table.x, y: table.y + 1, style: theme[.dim], maxWidth: table.width)
            return
        }
        let titles = ["recordName", "result", "type", "modified", "change tag"]
        let rows = fetch.rows
        let visible = rows[fetch.list.offset..<min(rows.count, fetch.list.offset + table.height)]
        let values = visible.map(cells)
        let widths = ViewKit.widths(titles: titles, values: values, cap: 30)
        let columns = zip(titles, widths).map { ViewKit.Column(title: $0, width: $1) }
        let offset = fetch.list.offset
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: rows.count, cursor: fetch.list, theme: theme) { row, column in
            let found = rows[row].record != nil
            let style: Style? = column == 1 ? (found ? theme[.success] : theme[.error]) : nil
            return (values[row - offset][column], style)
        }
    }

    static func cells(_ row: FetchRow) -> [String] {
        if let record = row.record {
            return [row.recordName, "found", record.recordType, record.modificationDate.map(ValueText.timestamp) ?? "",
                    record.recordChangeTag ?? ""]
        }
        let reason = row.error.map { $0.code == .unknownItem ? "not found" : "\($0.code.name) (\($0.code.rawValue))" } ?? "not found"
        return [row.recordName, reason, "", "", ""]
    }

    static func progressText(_ fetch: FetchTabState) -> String {
        if fetch.job != nil {
            let total = max(fetch.total, 1)
            let filled = fetch.done * 10 / total
            return "fetching \(fetch.done)/\(fetch.total) " + String(repeating: "▰", count: filled) + String(repeating: "▱", count: 10 - filled)
        }
        guard !fetch.rows.isEmpty else { return "" }
        let found = fetch.rows.filter { $0.record != nil }.count
        return "\(found) of \(fetch.rows.count) found" + (fetch.lastMilliseconds.map { " · \($0) ms" } ?? "")
    }
}
