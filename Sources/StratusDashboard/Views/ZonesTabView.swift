import StratusEngine
import StratusTerminal

/// The Zones tab: the database's zones with owner, record count and current token.
enum ZonesTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height)
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
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: zones.count, cursor: state.zonesList, theme: theme) { row, column in
            let value = values[row][column]
            switch column {
            case 0: return (value + (zones[row].zoneID == state.zone ? " ●" : ""), theme[.accent])
            case 1, 3: return (value, theme[.dim])
            default: return (value, nil)
            }
        }
    }
}
