import StratusCloud
import StratusModel
import StratusTerminal

/// The Query tab: record type, filter, sort, fields and page size on two lines, then the
/// results table (only the visible rows are drawn).
enum QueryTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let query = state.query
        let width = canvas.width
        var x = 1
        x += ViewKit.labeled(&canvas, x: x, y: 0, label: "Type", value: query.recordType ?? "—", key: "t", theme: theme, maxWidth: width - x) + 2
        let filter = query.filter.isEmpty ? "all records"
            : RecentFilter(text: query.filter, arguments: query.arguments).label
        ViewKit.labeled(&canvas, x: x, y: 0, label: "Filter", value: filter, key: "f", theme: theme, maxWidth: width - x - 1)

        x = 1
        let sort = query.sort.isEmpty ? "none" : query.sort.map(\.label).joined(separator: ", then ")
        x += ViewKit.labeled(&canvas, x: x, y: 1, label: "Sort", value: sort, key: "s", theme: theme, maxWidth: width - x) + 2
        let fields = query.desiredKeys.map { $0.isEmpty ? "system only" : "\($0.count) fields" } ?? "all"
        x += ViewKit.labeled(&canvas, x: x, y: 1, label: "Fields", value: fields, key: "c", theme: theme, maxWidth: width - x) + 2
        x += ViewKit.labeled(&canvas, x: x, y: 1, label: "Page", value: "\(query.pageSize)", key: "p", theme: theme, maxWidth: width - x) + 2
        let counts = countsText(query)
        let countsWidth = DisplayWidth.of(counts)
        if x + countsWidth < width {
            canvas.put(counts, x: width - countsWidth - 1, y: 1, style: theme[.accent])
        }

        let table = Rect(x: 1, y: 2, width: width - 2, height: canvas.height - 2)
        if let error = query.error, query.records.isEmpty {
            for (index, line) in ViewKit.wrap(error, width: table.width).prefix(table.height).enumerated() {
                canvas.put(line, x: table.x, y: table.y + index, style: theme[.error])
            }
            return
        }
        let columns = QueryColumns.columns(schema: state.currentSchema, desiredKeys: query.desiredKeys)
        if query.records.isEmpty {
            let message: String
            if query.recordType == nil {
                message = state.schemaLoaded ? "The store has no record types yet: n makes a record once a type exists, or save records with the CLI." : "Loading the schema…"
            } else if query.loadingJob != nil {
                message = "Loading…"
            } else if query.hasRun {
                message = "No \(query.recordType!) records in \(state.zone.zoneName)\(query.filter.isEmpty ? "" : " match the filter")."
            } else {
                message = "r runs the query."
            }
            canvas.put(columns.joined(separator: "  "), x: table.x, y: table.y, style: theme[.header], maxWidth: table.width)
            canvas.put(message, x: table.x, y: table.y + 2, style: theme[.dim], maxWidth: table.width)
            return
        }
        // The record name stays; the other columns scroll with ←/→.
        let shown = [columns[0]] + columns.dropFirst().dropFirst(query.columnOffset)
        // Rows whose page was dropped and is being fetched again show as "…".
        let rows = query.list.offset..<min(query.rowCount, query.list.offset + table.height)
        let values = rows.map { row in
            query.shownRecord(at: row).map { record in shown.map { QueryColumns.cell(record, column: $0) } }
                ?? ["…"] + Array(repeating: "", count: shown.count - 1)
        }
        var widths = ViewKit.widths(titles: shown, values: values, cap: 28)
        widths[0] = min(widths[0], 24)
        var viewColumns: [ViewKit.Column] = []
        var used = 0
        for (index, title) in shown.enumerated() {
            let room = table.width - used
            // A column squeezed below eight columns (or its own width) says nothing: stop.
            if room <= 0 || (index > 0 && room < min(8, widths[index])) { break }
            let type = state.currentSchema?.fields[title]?.type
            let numeric = type.map { !$0.isList && ($0.base == .int64 || $0.base == .double) } ?? false
            viewColumns.append(ViewKit.Column(title: title, width: min(widths[index], table.width - used),
                                              alignment: numeric ? .right : .left))
            used += widths[index] + 1
        }
        let offset = query.list.offset
        ViewKit.table(&canvas, rect: table, columns: viewColumns, rowCount: query.rowCount, cursor: query.list, theme: theme) { row, column in
            let value = values[row - offset][column]
            if column == 0 { return (value, theme[.accent]) }
            return (value, nil)
        }
        if query.columnOffset > 0 {
            canvas.put("◀", x: 0, y: table.y, style: theme[.dim])
        }
        if used > table.width + 1 || shown.count > viewColumns.count {
            canvas.put("▶", x: width - 1, y: table.y, style: theme[.dim])
        }
    }

    static func countsText(_ query: QueryTabState) -> String {
        if query.records.isEmpty { return query.loadingJob != nil ? "loading…" : "" }
        let loaded = query.loadedCount
        var text: String
        if let tail = query.tail {
            if let total = query.indexedCount {
                text = "\(ViewKit.count(total - tail.count + query.list.selected + 1))/\(ViewKit.count(total, "match", plural: "matches"))"
            } else {
                text = "last \(ViewKit.count(tail.count)), \(tail.count - query.list.selected) from the end · counting \(ViewKit.count(max(query.countedSoFar ?? 0, loaded)))…"
            }
        } else if let matches = query.matchCount ?? query.indexedCount {
            text = "\(ViewKit.count(query.list.selected + 1))/\(ViewKit.count(matches, "match", plural: "matches"))"
        } else {
            text = "\(ViewKit.count(query.list.selected + 1))/\(ViewKit.count(loaded)) loaded"
            if query.cursor != nil { text += ", more available" }
            if let counted = query.countedSoFar, counted > loaded { text += " · counting \(ViewKit.count(counted))…" }
        }
        if let milliseconds = query.lastMilliseconds { text += " · \(milliseconds) ms" }
        return text
    }
}
