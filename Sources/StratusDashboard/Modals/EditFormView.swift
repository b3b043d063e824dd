import StratusTerminal

/// The record form: a row per field, typed as text in the field type's notation; bytes and
/// assets are shown but not editable.
enum EditFormView {
    static func draw(_ form: EditFormState, state: DashboardState, in canvas: inout Canvas, focused: Bool) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let title = form.isNew ? "New \(form.base.recordType) in \(form.base.recordID.zoneID.zoneName)"
            : "Edit \(form.base.recordType) \(form.base.recordName)"
        let inner = canvas.box(canvas.bounds, title: title, style: theme[.border], titleStyle: theme[.title])
        guard inner.height >= 4 else { return }
        let x = inner.x + 1
        let width = inner.width - 2
        let nameWidth = min(20, max(10, form.rows.map { DisplayWidth.of($0.name) }.max() ?? 10))
        let typeWidth = min(16, max(6, form.rows.map { DisplayWidth.of($0.type.description) }.max() ?? 6))
        let valueX = x + nameWidth + typeWidth + 2
        let valueWidth = max(4, inner.maxX - 1 - valueX)
        let listHeight = Layout.formRows(state.size)
        // The foot: the selected row's hint or error, then the form's; an error wraps in full,
        // taking rows from the list when it must.
        let foot = footLines(form, state: state, width: width)
        let footHeight = min(foot.count, max(2, inner.height / 2))
        let footY = inner.maxY - footHeight - 1
        for line in 0..<max(0, min(listHeight, footY - inner.y)) {
            let index = form.list.offset + line
            guard index < form.rowCount else { break }
            let y = inner.y + line
            let selected = index == form.list.selected
            let marker = selected ? "▸" : " "
            if form.isNew && index == 0 {
                canvas.put(marker + DisplayWidth.fit("recordName", to: nameWidth - 1), x: x, y: y, style: theme[.title])
                canvas.put(DisplayWidth.fit("STRING", to: typeWidth), x: x + nameWidth + 1, y: y, style: theme[.fieldType])
                TextFieldView.draw(form.nameField, in: &canvas, x: valueX, y: y, width: valueWidth, style: theme[.input],
                                   focused: focused && selected, placeholder: "empty: a UUID")
                continue
            }
            let row = form.rows[index - form.rowOffset]
            canvas.put(marker + DisplayWidth.fit(row.name, to: nameWidth - 1), x: x, y: y, style: row.error != nil ? theme[.error] : theme[.title])
            canvas.put(DisplayWidth.fit(row.type.description, to: typeWidth), x: x + nameWidth + 1, y: y, style: theme[.fieldType])
            if row.readOnly {
                canvas.put(row.field.text.isEmpty ? "—" : row.field.text, x: valueX, y: y, style: theme[.dim], maxWidth: valueWidth)
            } else {
                let changed = row.field.text != row.original
                TextFieldView.draw(row.field, in: &canvas, x: valueX, y: y, width: valueWidth,
                                   style: changed ? theme[.input].adding(.bold) : theme[.input], focused: focused && selected)
            }
        }
        canvas.divider(across: canvas.bounds, y: footY, style: theme[.border])
        for (line, item) in foot.prefix(footHeight).enumerated() {
            canvas.put(item.text, x: x, y: footY + 1 + line, style: item.style, maxWidth: width)
        }
    }

    /// The foot's lines: errors wrapped whole, hints on one line each.
    static func footLines(_ form: EditFormState, state: DashboardState, width: Int) -> [(text: String, style: Style)] {
        let theme = state.theme
        var lines: [(text: String, style: Style)] = []
        let index = form.list.selected - form.rowOffset
        if form.rows.indices.contains(index) {
            let row = form.rows[index]
            if let error = row.error {
                lines += ViewKit.wrap("✗ " + error, width: width).map { ($0, theme[.error]) }
            } else {
                lines.append(("\(row.name): " + ValueText.inputHint(row.type) + (row.readOnly ? "" : "; empty removes the field"), theme[.dim]))
            }
        } else {
            lines.append(("The record name: printable ASCII, unique in the zone; empty makes a UUID.", theme[.dim]))
        }
        if let error = form.error {
            lines += ViewKit.wrap(error, width: width).map { ($0, theme[.error]) }
        } else if form.savingJob != nil {
            lines.append(("Saving…", theme[.accent]))
        } else {
            lines.append(("Ctrl-S saves (if unchanged on the server) · Esc cancels", theme[.dim]))
        }
        return lines
    }
}
