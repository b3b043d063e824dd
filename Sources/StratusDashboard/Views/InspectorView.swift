import StratusEngine
import StratusTerminal

/// The record inspector: every system field and field with its type, the selected value in
/// full at the bottom.
enum InspectorView {
    static func draw(_ inspector: InspectorState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let record = inspector.record
        canvas.fill(canvas.bounds, style: theme[.text])
        let inner = canvas.box(canvas.bounds, title: "\(record.recordType) \(record.recordName)", style: theme[.border], titleStyle: theme[.title])
        guard inner.height > 3 else { return }
        let rows = InspectorRows.rows(record, schema: state.schema(named: record.recordType))
        var header = "zone \(record.recordID.zoneID.zoneName) · \(record.fields.count) fields"
        if let note = inspector.shareNote { header += " · " + note }
        if inspector.loadingJob != nil { header += " · loading the full record…" }
        canvas.put(header, x: inner.x + 1, y: inner.y, style: theme[.dim], maxWidth: inner.width - 2)
        let listHeight = Layout.inspectorRows(state.size)
        let table = Rect(x: inner.x + 1, y: inner.y + 1, width: inner.width - 2, height: min(listHeight + 1, inner.height - 1))
        let nameWidth = min(26, max(10, rows.map { DisplayWidth.of($0.name) }.max() ?? 10))
        let typeWidth = min(18, max(6, rows.map { DisplayWidth.of($0.type) }.max() ?? 6))
        let columns = [ViewKit.Column(title: "field", width: nameWidth), ViewKit.Column(title: "type", width: typeWidth),
                       ViewKit.Column(title: "value", width: max(4, table.width - nameWidth - typeWidth - 2))]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: rows.count, cursor: inspector.list, theme: theme) { row, column in
            let item = rows[row]
            switch column {
            case 0: return (item.name, item.isSystem ? theme[.dim] : theme[.title])
            case 1: return (item.type, theme[.fieldType])
            default: return (item.value, item.reference != nil ? theme[.accent] : nil)
            }
        }
        // The selected value in full.
        let detailTop = table.maxY
        guard detailTop < inner.maxY, rows.indices.contains(inspector.list.selected) else { return }
        canvas.divider(across: Rect(x: inner.x - 1, y: 0, width: inner.width + 2, height: 1), y: detailTop, style: theme[.border])
        let selected = rows[inspector.list.selected]
        var detail = "\(selected.name): \(selected.value)"
        if let reference = selected.reference { detail += "  (Enter opens \(reference))" }
        for (index, line) in ViewKit.wrap(detail, width: inner.width - 2).prefix(inner.maxY - detailTop - 1).enumerated() {
            canvas.put(line, x: inner.x + 1, y: detailTop + 1 + index, style: theme[.text])
        }
    }
}
