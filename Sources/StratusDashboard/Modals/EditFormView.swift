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
        for line in 0..<min(listHeight, inner.height - 3) {
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
        // Hint and errors for the selected row.
        let footY = inner.maxY - 3
        canvas.divider(across: canvas.bounds, y: footY, style: theme[.border])
        let index = form.list.selected - form.rowOffset
        if form.rows.indices.contains(index) {
            let row = form.rows[index]
            if let error = row.error {
                canvas.put("✗ " + error, x: x, y: footY + 1, style: theme[.error], maxWidth: width)
            } else {
                canvas.put("\(row.name): " + ValueText.inputHint(row.type) + (row.readOnly ? "" : "; empty removes the field"),
                           x: x, y: footY + 1, style: theme[.dim], maxWidth: width)
            }
        } else {
            canvas.put("The record name: printable ASCII, unique in the zone; empty makes a UUID.", x: x, y: footY + 1, style: theme[.dim], maxWidth: width)
        }
        if let error = form.error {
            canvas.put(error, x: x, y: footY + 2, style: theme[.error], maxWidth: width)
        } else if form.savingJob != nil {
            canvas.put("Saving…", x: x, y: footY + 2, style: theme[.accent], maxWidth: width)
        } else {
            canvas.put("Ctrl-S saves (if unchanged on the server) · Esc cancels", x: x, y: footY + 2, style: theme[.dim], maxWidth: width)
        }
    }
}
