import StratusModel
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
        let rows = InspectorRows.rows(record, schema: state.schema(named: record.recordType), lens: state.coreDataLensActive, graph: inspector.graph)
        var header = "zone \(record.recordID.zoneID.zoneName) · \(record.fields.count) fields"
        if state.coreDataLensActive, CoreDataRows.rows(record) != nil { header += " · Core Data lens (L turns it off)" }
        if let note = inspector.shareNote { header += " · " + note }
        if inspector.loadingJob != nil { header += " · loading the full record…" }
        canvas.put(header, x: inner.x + 1, y: inner.y, style: theme[.dim], maxWidth: inner.width - 2)
        let listHeight = Layout.inspectorRows(state.size)
        let selectedValue = rows.indices.contains(inspector.list.selected) ? record[rows[inspector.list.selected].name] : nil
        // A selected location gets a map: the table gives up rows for it.
        let map = selectedValue.flatMap { value -> WorldMap? in
            guard case .location(let location) = value else { return nil }
            return WorldMap(location, height: max(3, min(8, (inner.height - 6) / 3)))
        }
        let mapRows = map?.lines.count ?? 0
        let table = Rect(x: inner.x + 1, y: inner.y + 1, width: inner.width - 2,
                         height: min(listHeight + 1, inner.height - 1) - max(0, mapRows - detailRows))
        var cursor = inspector.list
        cursor.offset = max(cursor.offset, cursor.selected - (table.height - 1) + 1)
        let nameWidth = min(26, max(10, rows.map { DisplayWidth.of($0.name) }.max() ?? 10))
        let typeWidth = min(18, max(6, rows.map { DisplayWidth.of($0.type) }.max() ?? 6))
        let columns = [ViewKit.Column(title: "field", width: nameWidth), ViewKit.Column(title: "type", width: typeWidth),
                       ViewKit.Column(title: "value", width: max(4, table.width - nameWidth - typeWidth - 2))]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: rows.count, cursor: cursor, theme: theme) { row, column in
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
        var room = inner.maxY - detailTop - 1
        if let map, case .location(let location)? = selectedValue {
            drawMap(map, location: location, detail: detail, at: Rect(x: inner.x + 1, y: detailTop + 1, width: inner.width - 2, height: room),
                    theme: theme, in: &canvas)
            return
        }
        // A list of numbers is easier seen than read: its sparkline comes first.
        let numbers = record[selected.name].map(numericElements) ?? []
        let chart = Sparkline.line(numbers, width: inner.width - 2 - 24)
        if !chart.isEmpty, room > 1, let low = numbers.min(), let high = numbers.max() {
            canvas.put(chart, x: inner.x + 1, y: detailTop + 1, style: theme[.accent])
            canvas.put(" \(ViewKit.number(low)) … \(ViewKit.number(high))", x: inner.x + 1 + chart.count, y: detailTop + 1, style: theme[.dim],
                       maxWidth: inner.width - 2 - chart.count)
            room -= 1
        }
        let top = detailTop + 1 + (inner.maxY - detailTop - 1 - room)
        for (index, line) in ViewKit.wrap(detail, width: inner.width - 2).prefix(room).enumerated() {
            canvas.put(line, x: inner.x + 1, y: top + index, style: theme[.text])
        }
    }

    /// The map on the left, the value and its hemispheres beside it.
    private static func drawMap(_ map: WorldMap, location: Location, detail: String, at rect: Rect, theme: Theme, in canvas: inout Canvas) {
        for (index, line) in map.lines.prefix(rect.height).enumerated() {
            canvas.put(line, x: rect.x, y: rect.y + index, style: theme[.dim])
        }
        if map.markerRow < rect.height {
            canvas.put(String(WorldMap.marker), x: rect.x + map.markerColumn, y: rect.y + map.markerRow, style: theme[.accent].adding(.bold))
        }
        let textX = rect.x + DisplayWidth.of(map.lines.first ?? "") + 2
        let textWidth = rect.maxX - textX
        guard textWidth > 4 else { return }
        let lines = ViewKit.wrap(detail, width: textWidth) + [WorldMap.caption(location)]
        for (index, line) in lines.prefix(rect.height).enumerated() {
            canvas.put(line, x: textX, y: rect.y + index, style: index == lines.count - 1 ? theme[.accent] : theme[.text], maxWidth: textWidth)
        }
    }

    /// Rows under the table for the selected value (a map may take more).
    private static let detailRows = 3

    /// The numbers of an INT64 or DOUBLE list (empty for anything else).
    static func numericElements(_ value: FieldValue) -> [Double] {
        guard case .list = value else { return [] }
        return value.elements.compactMap { element -> Double? in
            switch element {
            case .int64(let number): return Double(number)
            case .double(let number): return number
            default: return nil
            }
        }
    }
}
