import StratusTerminal
import StratusCloud

/// The Zones tab: the database's zones with owner, record count and current token.
enum ZonesTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let barsHeight = Layout.zoneBarsHeight(state.size)
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height - barsHeight)
        guard !state.zones.isEmpty else {
            canvas.put("Loading the zones of the \(state.scope.name) database…", x: 1, y: 1, style: theme[.dim], maxWidth: table.width)
            return
        }
        let zones = state.zones
        // A zone shared with the user is named with its owner: shown by alias.
        let owner = { (name: String) in state.users.first { $0.recordName == name }?.alias ?? name }
        let values = zones.map { [$0.zoneID.zoneName, owner($0.zoneID.ownerName), ViewKit.count($0.recordCount), $0.currentToken] }
        var widths = ViewKit.widths(titles: ["zone", "owner", "records", "current token"], values: values, cap: 24)
        widths[3] = max(8, table.width - widths[0] - widths[1] - widths[2] - 3)
        let columns = [ViewKit.Column(title: "zone", width: widths[0]), ViewKit.Column(title: "owner", width: widths[1]),
                       ViewKit.Column(title: "records", width: widths[2], alignment: .right), ViewKit.Column(title: "current token", width: widths[3])]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: zones.count, cursor: state.zonesTab.list, theme: theme) { row, column in
            let value = values[row][column]
            switch column {
            case 0: return (value + (zones[row].zoneID == state.zone ? " ●" : ""), theme[.accent])
            case 1, 3: return (value, theme[.dim])
            default: return (value, nil)
            }
        }
        if barsHeight > 0, zones.indices.contains(state.zonesTab.list.selected) {
            drawBars(state, zone: zones[state.zonesTab.list.selected].zoneID, in: &canvas,
                     rect: Rect(x: 1, y: canvas.height - barsHeight, width: canvas.width - 2, height: barsHeight))
        }
    }

    /// The selected zone's records per type, the busiest first, as bars scaled to the busiest.
    static func drawBars(_ state: DashboardState, zone: ZoneID, in canvas: inout Canvas, rect: Rect) {
        let theme = state.theme
        canvas.horizontalLine(x: 0, y: rect.y, length: canvas.width, style: theme[.border])
        let title = " Records by type in \(zone.zoneName) "
        canvas.put(title, x: rect.x + 1, y: rect.y, style: theme[.title], maxWidth: rect.width - 2)
        guard let counts = state.zonesTab.typeCounts[zone] else {
            canvas.put("Counting…", x: rect.x, y: rect.y + 1, style: theme[.dim], maxWidth: rect.width)
            return
        }
        guard !counts.isEmpty else {
            canvas.put("No records.", x: rect.x, y: rect.y + 1, style: theme[.dim], maxWidth: rect.width)
            return
        }
        let rows = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let shown = Array(rows.prefix(rect.height - 1))
        let nameWidth = min(24, shown.map { DisplayWidth.of($0.key) }.max() ?? 4)
        let countWidth = shown.map { ViewKit.count($0.value).count }.max() ?? 1
        let barWidth = max(1, rect.width - nameWidth - countWidth - 4)
        let largest = max(1, shown.first?.value ?? 1)
        for (line, entry) in shown.enumerated() {
            let y = rect.y + 1 + line
            canvas.put(DisplayWidth.fit(entry.key, to: nameWidth), x: rect.x, y: y, style: theme[.text])
            let bar = bar(entry.value, of: largest, width: barWidth)
            canvas.put(bar, x: rect.x + nameWidth + 1, y: y, style: theme[.accent])
            canvas.put(ViewKit.count(entry.value), x: rect.x + nameWidth + 2 + DisplayWidth.of(bar), y: y, style: theme[.dim])
        }
        if rows.count > shown.count {
            let rest = rows.dropFirst(shown.count).reduce(0) { $0 + $1.value }
            let note = "+\(rows.count - shown.count) more types, \(ViewKit.count(rest)) records"
            canvas.put(note, x: rect.maxX - DisplayWidth.of(note), y: rect.y, style: theme[.dim])
        }
    }

    /// A bar of `value` against `largest` in `width` cells, in eighths of a cell (at least a
    /// sliver for any record at all).
    static func bar(_ value: Int, of largest: Int, width: Int) -> String {
        let eighths = max(value > 0 ? 1 : 0, Int((Double(value) / Double(largest) * Double(width * 8)).rounded()))
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partials[eighths % 8]
    }
}
