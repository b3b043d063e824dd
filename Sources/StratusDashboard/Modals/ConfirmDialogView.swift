import StratusTerminal

/// A yes/no question before anything destructive.
enum ConfirmDialogView {
    static func draw(_ confirm: ConfirmState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let width = min(canvas.width - 4, 60)
        // Whatever it confirms writes to production there: said in every dialog.
        let message = [confirm.message, confirm.action is HeldWrites ? nil : ProductionWrites.warning(state)].compactMap { $0 }.joined(separator: " ")
        let lines = ViewKit.wrap(message, width: width - 4)
        let rect = ViewKit.centered(in: canvas.bounds, width: width, height: lines.count + 5)
        canvas.fill(rect, style: theme[.text])
        let inner = canvas.box(rect, title: confirm.title, style: theme[.warning], titleStyle: theme[.warning].adding(.bold))
        for (index, line) in lines.prefix(max(0, inner.height - 2)).enumerated() {
            canvas.put(line, x: inner.x + 1, y: inner.y + index, style: theme[.text])
        }
        let y = inner.maxY - 1
        var x = inner.x + 1
        x += canvas.put("y", x: x, y: y, style: theme[.hintKey])
        x += canvas.put(" yes   ", x: x, y: y, style: theme[.hint])
        x += canvas.put("n", x: x, y: y, style: theme[.hintKey])
        canvas.put(" no (Esc)", x: x, y: y, style: theme[.hint])
    }
}
