import StratusTerminal

/// A save refused with serverRecordChanged: your version against the server's, field by field.
enum ConflictDialogView {
    static func draw(_ conflict: ConflictState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let inner = canvas.box(canvas.bounds, title: "Conflict: \(conflict.mine.recordName) changed on the server",
                               style: theme[.warning], titleStyle: theme[.warning].adding(.bold))
        guard inner.height >= 5 else { return }
        let x = inner.x + 1
        let width = inner.width - 2
        let tags = "Yours is based on change tag \(conflict.mine.recordChangeTag ?? "—"); the server has \(conflict.server.recordChangeTag ?? "—")"
            + (conflict.server.lastModifiedUserRecordName.map { ", last modified by \($0)" } ?? "") + "."
        canvas.put(tags, x: x, y: inner.y, style: theme[.dim], maxWidth: width)
        let rows = conflict.rows
        let nameWidth = min(20, max(6, rows.map { DisplayWidth.of($0.name) }.max() ?? 6))
        let half = max(6, (width - nameWidth - 4) / 2)
        let columns = [ViewKit.Column(title: "field", width: nameWidth + 2), ViewKit.Column(title: "yours", width: half),
                       ViewKit.Column(title: "server's", width: half)]
        let table = Rect(x: x, y: inner.y + 1, width: width, height: inner.height - 3)
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: rows.count, cursor: conflict.list, theme: theme) { row, column in
            let item = rows[row]
            switch column {
            case 0: return ((item.differs ? "≠ " : "  ") + item.name, item.differs ? theme[.warning] : theme[.dim])
            case 1: return (item.mine, item.differs ? theme[.text] : theme[.dim])
            default: return (item.server, item.differs ? theme[.text] : theme[.dim])
            }
        }
        let y = inner.maxY - 1
        var cursor = x
        for (key, text) in [("o", " overwrite with yours (all keys)   "), ("s", " take the server's   "), ("c", " back to your edit")] {
            cursor += canvas.put(key, x: cursor, y: y, style: theme[.hintKey])
            cursor += canvas.put(text, x: cursor, y: y, style: theme[.hint], maxWidth: inner.maxX - cursor)
        }
        if conflict.savingJob != nil { canvas.put("Saving…", x: inner.maxX - 9, y: y, style: theme[.accent]) }
    }
}
