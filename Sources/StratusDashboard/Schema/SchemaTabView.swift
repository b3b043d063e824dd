import StratusTerminal

/// The Schema tab: each record type with its fields, types, indexes and grants, then the roles.
enum SchemaTabView {
    static func draw(_ state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let table = Rect(x: 1, y: 0, width: canvas.width - 2, height: canvas.height)
        let lines = SchemaLines.lines(state)
        if state.schemaTab.diff != nil {
            drawDiff(lines, state: state, in: &canvas, table: table)
            return
        }
        guard !lines.isEmpty else {
            canvas.put(state.schemaLoaded ? "No record types yet." : "Loading the schema…", x: 1, y: 1, style: theme[.dim], maxWidth: table.width)
            return
        }
        let visible = lines[state.schemaTab.list.offset..<min(lines.count, state.schemaTab.list.offset + table.height)]
        let nameWidth = min(26, max(12, visible.map { DisplayWidth.of($0.field ?? $0.recordType) + 2 }.max() ?? 12))
        let typeWidth = min(28, max(10, visible.map { DisplayWidth.of($0.type) }.max() ?? 10))
        let columns = [ViewKit.Column(title: "record type / field", width: nameWidth), ViewKit.Column(title: "type", width: typeWidth),
                       ViewKit.Column(title: "indexes", width: max(8, table.width - nameWidth - typeWidth - 2))]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: lines.count, cursor: state.schemaTab.list, theme: theme) { row, column in
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
            case .systemField:
                // Dim beside the type's own fields, as the console lists them apart.
                switch column {
                case 0: return ("  " + (line.field ?? ""), theme[.dim])
                case 1: return (line.type, theme[.dim])
                default: return (line.indexes, theme[.dim])
                }
            case .diffHeading, .diffChange:
                // Drawn by drawDiff.
                return (column == 0 ? line.recordType : "", nil)
            }
            switch column {
            case 0: return ("  " + (line.field ?? ""), nil)
            case 1: return (line.type, theme[.fieldType])
            default: return (line.indexes, theme[.dim])
            }
        }
    }

    /// The diff: a line per change, `+` added in green, `-` removed and CloudKit's refusals in
    /// red, `~` changed as text.
    static func drawDiff(_ lines: [SchemaLine], state: DashboardState, in canvas: inout Canvas, table: Rect) {
        let theme = state.theme
        var table = table
        // The selected change in full below the list when its line is cut (a refusal's reason).
        let selected = lines.indices.contains(state.schemaTab.list.selected) ? lines[state.schemaTab.list.selected] : nil
        if let selected, selected.kind == .diffChange, table.height > 6 {
            let text = diffText(selected)
            if DisplayWidth.of(text) > table.width - 2 {
                let detail = Array(ViewKit.wrap(text, width: table.width).prefix(min(4, table.height / 3)))
                table.height -= detail.count + 1
                canvas.horizontalLine(x: 0, y: table.maxY, length: canvas.width, style: theme[.border])
                for (index, line) in detail.enumerated() {
                    canvas.put(line, x: table.x, y: table.maxY + 1 + index, style: selected.indexes.isEmpty ? theme[.text] : theme[.error], maxWidth: table.width)
                }
            }
        }
        let columns = [ViewKit.Column(title: "schema diff (v: back to the schema)", width: table.width)]
        ViewKit.table(&canvas, rect: table, columns: columns, rowCount: lines.count, cursor: state.schemaTab.list, theme: theme) { row, _ in
            let line = lines[row]
            if line.kind == .diffHeading { return (line.recordType, theme[.title].adding(.bold)) }
            let text = diffText(line)
            if !line.indexes.isEmpty || line.recordType.hasPrefix("-") { return (text, theme[.error]) }
            return (text, line.recordType.hasPrefix("+") ? theme[.success] : nil)
        }
    }

    /// A change's line: what changes, and CloudKit's refusal to deploy it, if any.
    static func diffText(_ line: SchemaLine) -> String {
        line.indexes.isEmpty ? line.recordType : line.recordType + "    " + line.indexes
    }
}
