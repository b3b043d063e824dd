import StratusEngine
import StratusTerminal

/// The Schema tab: each record type with its fields, types, indexes and grants, then the roles.
enum SchemaTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height)
        let lines = SchemaLines.lines(state)
        guard !lines.isEmpty else {
            canvas.put(state.schemaLoaded ? "No record types yet." : "Loading the schema…", x: 1, y: 1, style: theme[.dim], maxWidth: table.width)
            return
        }
        let visible = lines[state.schemaList.offset..<min(lines.count, state.schemaList.offset + table.height)]
        let nameWidth = min(26, max(12, visible.map { DisplayWidth.of($0.field ?? $0.recordType) + 2 }.max() ?? 12))
        let typeWidth = min(28, max(10, visible.map { DisplayWidth.of($0.type) }.max() ?? 10))
        let columns = [ViewKit.Column(title: "record type / field", width: nameWidth), ViewKit.Column(title: "type", width: typeWidth),
                       ViewKit.Column(title: "indexes", width: max(8, table.width - nameWidth - typeWidth - 2))]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: lines.count, cursor: state.schemaList, theme: theme) { row, column in
            let line = lines[row]
            switch line.kind {
            case .recordType, .rolesHeading:
                switch column {
                case 0: return (line.recordType, theme[.title].adding(.bold))
                case 1: return (line.type, theme[.dim])
                default: return ("", nil)
                }
            case .grant:
                switch column {
                case 0: return ("  GRANT", theme[.accent])
                case 1: return (line.type, theme[.accent])
                default: return (line.indexes, theme[.dim])
                }
            case .role:
                switch column {
                case 0: return ("  " + (line.field ?? ""), theme[.accent])
                case 1: return (line.type, theme[.dim])
                default: return ("", nil)
                }
            case .field:
                break
            }
            switch column {
            case 0: return ("  " + (line.field ?? ""), nil)
            case 1: return (line.type, theme[.fieldType])
            default: return (line.indexes, theme[.dim])
            }
        }
    }
}
