import StratusTerminal

/// The filter editor: the builder (conditions joined by AND) above the text of the same
/// predicate, and under the text one argument row per format specifier; the text, bound to
/// the arguments, is checked on every keystroke, an error underlined where it is.
enum FilterEditorView {
    /// Argument rows shown at once (the selected one scrolls into view).
    static let argumentRowsShown = 3

    static func draw(_ editor: FilterEditorState, state: DashboardState, in canvas: inout Canvas, focused: Bool) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let inner = canvas.box(canvas.bounds, title: "Filter · \(editor.recordType)", style: theme[.border], titleStyle: theme[.title])
        guard inner.width >= 10, inner.height >= 1 else { return }
        guard inner.height >= 8 else {
            drawCompact(editor, state: state, in: &canvas, inner: inner, focused: focused)
            return
        }
        let x = inner.x + 1
        let width = inner.width - 2
        // The Web Services form takes the lines it needs; the builder keeps three at least.
        let webLines = editor.check.flatMap(\.ckws).map { webForm($0, width: width - 8).count } ?? 1
        let bottomLines = 6 + webLines
        let argumentLines = editor.argumentRows.isEmpty ? 0
            : 1 + min(editor.argumentRows.count, argumentRowsShown, max(1, inner.height - 7 - 3))
        let builderHeight = max(min(3, max(1, editor.rows.count)), inner.height - bottomLines - 1 - argumentLines)

        // Builder
        let builderFocused = editor.focus == .builder
        canvas.put((builderFocused ? "▸ " : "  ") + "Builder", x: x, y: inner.y, style: builderFocused ? theme[.accent].adding(.bold) : theme[.dim])
        canvas.put("  conditions joined by AND; a adds, Enter changes a cell", x: x + 9, y: inner.y, style: theme[.dim], maxWidth: width - 9)
        if !editor.builderSynced {
            let note = "The builder can't show this filter: \(editor.builderNote ?? "")"
            for (index, line) in ViewKit.wrap(note, width: width - 2).prefix(builderHeight).enumerated() {
                canvas.put(line, x: x + 2, y: inner.y + 1 + index, style: theme[.warning])
            }
        } else if editor.rows.isEmpty {
            canvas.put("(no conditions: every record) a adds one", x: x + 2, y: inner.y + 1, style: theme[.dim], maxWidth: width - 2)
        } else {
            let fieldWidth = min(22, max(5, editor.rows.map { DisplayWidth.of($0.field) }.max() ?? 5))
            let opWidth = min(14, max(2, editor.rows.map { DisplayWidth.of($0.op.label) }.max() ?? 2))
            let first = max(0, editor.row - builderHeight + 1)
            for (line, index) in (first..<min(editor.rows.count, first + builderHeight)).enumerated() {
                let row = editor.rows[index]
                let y = inner.y + 1 + line
                canvas.put(index == 0 ? "    " : "AND ", x: x, y: y, style: theme[.dim])
                let value = row.value.isEmpty ? "(value)" : row.value
                let cells = [DisplayWidth.fit(row.field, to: fieldWidth), DisplayWidth.fit(row.op.label, to: opWidth), value]
                var cellX = x + 4
                for (column, text) in cells.enumerated() {
                    var style = column == 0 ? theme[.title] : column == 1 ? theme[.accent] : (row.value.isEmpty ? theme[.dim] : theme[.text])
                    if builderFocused, index == editor.row, column == editor.column { style = theme[.selection] }
                    cellX += canvas.put(text, x: cellX, y: y, style: style, maxWidth: inner.maxX - 1 - cellX) + 2
                }
            }
        }

        // Text
        let textTop = inner.y + 1 + builderHeight
        let textFocused = editor.focus == .text
        canvas.put((textFocused ? "▸ " : "  ") + "Text", x: x, y: textTop, style: textFocused ? theme[.accent].adding(.bold) : theme[.dim])
        canvas.put("  NSPredicate format, checked as you type", x: x + 6, y: textTop, style: theme[.dim], maxWidth: width - 6)
        let fieldY = textTop + 1
        canvas.put(">", x: x, y: fieldY, style: theme[.accent])
        let fieldX = x + 2
        let fieldWidth = width - 2
        let scroll = TextFieldView.draw(editor.text, in: &canvas, x: fieldX, y: fieldY, width: fieldWidth, style: theme[.input],
                                        focused: focused && textFocused, placeholder: "e.g. title BEGINSWITH \"Tokyo\" AND nights > 3")
        let problem = editor.check?.problems.first
        if let problem, let offset = problem.offset {
            let columns = TextField.columns(of: editor.text.text, scalarOffset: offset, length: problem.length)
            let start = max(0, columns.lowerBound - scroll)
            let end = min(fieldWidth, columns.upperBound - scroll)
            if end > start {
                canvas.restyle(Rect(x: fieldX + start, y: fieldY, width: end - start, height: 1)) { _ in theme[.errorUnderline] }
                canvas.put("^" + String(repeating: "~", count: max(0, end - start - 1)), x: fieldX + start, y: fieldY + 1,
                           style: theme[.error], maxWidth: fieldWidth - start)
            }
        }
        if argumentLines > 0 {
            drawArguments(editor, state: state, in: &canvas, x: x, y: fieldY + 2, width: width, rows: argumentLines - 1, focused: focused)
        }
        let messageY = fieldY + 2 + argumentLines
        if let check = editor.check {
            if check.isValid {
                canvas.put("✓ valid", x: x, y: messageY, style: theme[.success])
                let canonical = "canonical: " + (check.canonical ?? "")
                canvas.put(canonical, x: x + 8, y: messageY, style: theme[.text], maxWidth: width - 8)
                let indexes = check.indexes.isEmpty ? "indexes: none needed" : "indexes: " + check.indexes.joined(separator: ", ")
                canvas.put(indexes, x: x + 8, y: messageY + 1, style: theme[.dim], maxWidth: width - 8)
                if let web = check.ckws, messageY + 2 < inner.maxY {
                    // The whole query as Web Services sends it, wrapped over the room left
                    // (Ctrl-Y copies it when it is longer still).
                    let room = max(1, inner.maxY - (messageY + 2) - (recentShown(state, editor) ? 1 : 0))
                    var lines = webForm(web, width: width - 8)
                    if lines.count > room {
                        lines = Array(lines.prefix(room))
                        lines[room - 1] = DisplayWidth.truncate(lines[room - 1] + " ", to: width - 8 - 17) + "… Ctrl-Y copies"
                    }
                    for (index, line) in lines.enumerated() {
                        canvas.put(line, x: x + 8, y: messageY + 2 + index, style: theme[.dim], maxWidth: width - 8)
                    }
                }
            } else if let problem {
                let lines = ViewKit.wrap("✗ " + problem.message, width: width)
                for (index, line) in lines.prefix(3).enumerated() {
                    canvas.put(line, x: x, y: messageY + index, style: theme[.error])
                }
            }
        }
        let recent = state.preferences.recentFilters[editor.recordType] ?? []
        if recentShown(state, editor), messageY + 3 < inner.maxY {
            canvas.put("Recent (Ctrl-R): " + recent.prefix(3).map(\.label).joined(separator: " · "), x: x, y: inner.maxY - 1,
                       style: theme[.dim], maxWidth: width)
        }
    }

    /// `CKWS: ` and the query's JSON, cut into lines of `width` columns (JSON has no spaces
    /// to break at).
    static func webForm(_ web: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for character in "CKWS: " + web {
            if DisplayWidth.of(line) + DisplayWidth.of(character) > width {
                lines.append(line)
                line = ""
            }
            line.append(character)
        }
        return lines + [line]
    }

    private static func recentShown(_ state: DashboardState, _ editor: FilterEditorState) -> Bool {
        !(state.preferences.recentFilters[editor.recordType] ?? []).isEmpty
    }

    /// A window too short for the builder: the text, the caret under an error and the check's
    /// word, in the lines there are.
    static func drawCompact(_ editor: FilterEditorState, state: DashboardState, in canvas: inout Canvas, inner: Rect, focused: Bool) {
        let theme = state.theme
        let x = inner.x + 1, width = inner.width - 2
        canvas.put(">", x: x, y: inner.y, style: theme[.accent])
        let scroll = TextFieldView.draw(editor.text, in: &canvas, x: x + 2, y: inner.y, width: width - 2, style: theme[.input],
                                        focused: focused && editor.focus == .text, placeholder: "NSPredicate format")
        var lines: [(String, Style)] = []
        if let problem = editor.check?.problems.first {
            if let offset = problem.offset {
                let columns = TextField.columns(of: editor.text.text, scalarOffset: offset, length: problem.length)
                let start = max(0, columns.lowerBound - scroll)
                if start < width - 2 { lines.append((String(repeating: " ", count: start + 2) + "^", theme[.error])) }
            }
            lines += ViewKit.wrap("✗ " + problem.message, width: width).map { ($0, theme[.error]) }
        } else if editor.check?.isValid == true {
            lines.append(("✓ valid", theme[.success]))
        }
        if editor.focus != .text {
            lines.append(("The builder and arguments need a taller window; Tab edits the text.", theme[.dim]))
        }
        for (index, line) in lines.prefix(inner.height - 1).enumerated() {
            canvas.put(line.0, x: x, y: inner.y + 1 + index, style: line.1, maxWidth: width)
        }
    }

    /// The Arguments area: a heading, then `N %@ > field  ✓ STRING` or the argument's error.
    static func drawArguments(_ editor: FilterEditorState, state: DashboardState, in canvas: inout Canvas,
                              x: Int, y: Int, width: Int, rows: Int, focused: Bool) {
        let theme = state.theme
        let areaFocused = editor.focus == .arguments
        canvas.put((areaFocused ? "▸ " : "  ") + "Arguments", x: x, y: y, style: areaFocused ? theme[.accent].adding(.bold) : theme[.dim])
        canvas.put("  TYPE:VALUE: string int double date ref location list key", x: x + 11, y: y,
                   style: theme[.dim], maxWidth: width - 11)
        let labelWidth = min(10, DisplayWidth.of("\(editor.argumentRows.count) %") + (editor.argumentRows.map { DisplayWidth.of($0.specifier) }.max() ?? 1) + 4)
        let fieldWidth = max(8, min(28, (width - labelWidth) / 2))
        let first = max(0, editor.argumentRow - rows + 1)
        for (line, index) in (first..<min(editor.argumentRows.count, first + rows)).enumerated() {
            let row = editor.argumentRows[index]
            let rowY = y + 1 + line
            let selected = areaFocused && index == editor.argumentRow
            canvas.put(DisplayWidth.fit("\(index + 1) %\(row.specifier)", to: labelWidth - 4), x: x + 2, y: rowY,
                       style: selected ? theme[.accent] : theme[.title])
            let fieldX = x + labelWidth
            TextFieldView.draw(row.field, in: &canvas, x: fieldX, y: rowY, width: fieldWidth, style: theme[.input],
                               focused: focused && selected, placeholder: "e.g. \(row.example)")
            let noteX = fieldX + fieldWidth + 2
            if let error = row.error {
                canvas.put("✗ " + error, x: noteX, y: rowY, style: theme[.error], maxWidth: x + width - noteX)
            } else if row.isMissing {
                canvas.put("missing", x: noteX, y: rowY, style: theme[.warning], maxWidth: x + width - noteX)
            } else {
                canvas.put(row.summary, x: noteX, y: rowY, style: theme[.success], maxWidth: x + width - noteX)
            }
        }
    }
}
