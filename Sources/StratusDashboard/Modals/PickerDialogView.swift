import StratusTerminal

/// A list to choose from (record type, sort, zone, operator ...), with check boxes when several
/// can be chosen.
enum PickerDialogView {
    static func draw(_ picker: PickerState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let rows = Layout.pickerRows(state.size)
        let labelWidth = picker.items.map { DisplayWidth.of($0.label) }.max() ?? 10
        let detailWidth = picker.items.map { DisplayWidth.of($0.detail) }.max() ?? 0
        let footer = picker.multiple ? "Space checks · a all · Enter applies" : "Enter chooses · Esc cancels"
        // Wide enough for the title, the rows and the footer, so none is cut.
        let wanted = max(DisplayWidth.of(picker.title) + 6, labelWidth + detailWidth + (picker.multiple ? 8 : 4) + 2,
                         DisplayWidth.of(footer) + 2)
        let width = min(wanted, canvas.width - 4) + 2
        // The selected option's hint, whole, above the footer when its row cuts it.
        var detail: [String] = []
        if picker.items.indices.contains(picker.list.selected) {
            let item = picker.items[picker.list.selected]
            let room = width - 2 - (picker.multiple ? 5 : 1) - min(labelWidth, width) - 2
            if DisplayWidth.of(item.detail) > room {
                detail = Array(ViewKit.wrap(item.detail, width: width - 3).prefix(3))
            }
        }
        let rect = ViewKit.centered(in: canvas.bounds, width: width, height: min(picker.items.count, rows) + 3 + detail.count)
        canvas.fill(rect, style: theme[.text])
        let inner = canvas.box(rect, title: picker.title, style: theme[.border], titleStyle: theme[.title])
        guard !picker.items.isEmpty else {
            canvas.put("(nothing to choose)", x: inner.x + 1, y: inner.y, style: theme[.dim], maxWidth: inner.width - 1)
            return
        }
        for (index, line) in detail.enumerated() where inner.maxY - 1 - detail.count + index > inner.y {
            canvas.put(line, x: inner.x + 1, y: inner.maxY - 1 - detail.count + index, style: theme[.dim], maxWidth: inner.width - 1)
        }
        for line in 0..<min(inner.height - 1 - detail.count, rows) {
            let index = picker.list.offset + line
            guard index < picker.items.count else { break }
            let item = picker.items[index]
            let y = inner.y + line
            var x = inner.x + 1
            if picker.multiple {
                x += canvas.put(item.checked ? "[x] " : "[ ] ", x: x, y: y, style: theme[.accent])
            }
            let labelRoom = min(labelWidth, inner.maxX - x)
            canvas.put(DisplayWidth.fit(item.label, to: labelRoom), x: x, y: y, style: theme[.text], maxWidth: labelRoom)
            x += labelRoom + 2
            if x < inner.maxX { canvas.put(item.detail, x: x, y: y, style: theme[.dim], maxWidth: inner.maxX - x) }
            if index == picker.list.selected {
                canvas.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1)) { _ in theme[.selection] }
            }
        }
        canvas.put(footer, x: inner.x + 1, y: inner.maxY - 1, style: theme[.dim], maxWidth: inner.width - 1)
    }
}
