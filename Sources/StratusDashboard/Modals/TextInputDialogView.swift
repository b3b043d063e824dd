import StratusTerminal

/// A one-line input with a title and a hint (record names, tokens, a builder value, search).
enum TextInputDialogView {
    static func draw(_ input: TextInputState, state: DashboardState, in canvas: inout Canvas, focused: Bool) {
        let theme = state.theme
        let rect = ViewKit.centered(in: canvas.bounds, width: min(canvas.width - 2, 76), height: 6)
        canvas.fill(rect, style: theme[.text])
        let inner = canvas.box(rect, title: input.title, style: theme[.border], titleStyle: theme[.title])
        guard inner.height >= 3 else { return }
        TextFieldView.draw(input.field, in: &canvas, x: inner.x + 1, y: inner.y + 1, width: inner.width - 2, style: theme[.input], focused: focused)
        if let error = input.error {
            canvas.put(error, x: inner.x + 1, y: inner.y + 2, style: theme[.error], maxWidth: inner.width - 2)
        } else {
            canvas.put(input.hint, x: inner.x + 1, y: inner.y, style: theme[.dim], maxWidth: inner.width - 2)
            canvas.put("Enter accepts · Esc cancels", x: inner.x + 1, y: inner.y + 3, style: theme[.dim], maxWidth: inner.width - 2)
        }
    }
}
