import StratusTerminal

/// The request and the response of one logged request, over the whole screen: its line as the
/// Logs tab shows it, then each body wrapped to the width (nothing is cut off), scrolled.
enum RequestBodiesView {
    /// Rows of text inside the frame, which fills the tabs' area.
    static func rows(_ size: Size) -> Int { max(1, Layout.body(size).height - 2) }

    static func textWidth(_ size: Size) -> Int { max(1, size.width - 4) }

    /// Every line of the text: a heading, the body's lines wrapped to `width`, for each body.
    static func lines(_ state: RequestBodiesState, width: Int) -> [(text: String, heading: Bool)] {
        var lines: [(String, Bool)] = []
        for (title, body) in [("Request", state.bodies.request), ("Response · \(state.entry.status)", state.bodies.response)] {
            if !lines.isEmpty { lines.append(("", false)) }
            lines.append((title, true))
            let text = body.isEmpty ? "(empty)" : body
            lines += ViewKit.wrap(text, width: width).map { ($0, false) }
        }
        return lines
    }

    static func draw(_ bodies: RequestBodiesState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let entry = bodies.entry
        let title = "\(entry.database) \(entry.endpoint) · \(entry.status) · \(ViewKit.count(Int(entry.durationMicroseconds / 1000))) ms"
        let inner = canvas.box(canvas.bounds, title: title, style: theme[.border], titleStyle: theme[.title])
        let all = lines(bodies, width: textWidth(state.size))
        for (index, line) in all.dropFirst(bodies.scroll).prefix(inner.height).enumerated() {
            canvas.put(line.text, x: inner.x + 1, y: inner.y + index, style: line.heading ? theme[.header] : theme[.text], maxWidth: inner.width - 2)
        }
        if all.count > bodies.scroll + inner.height {
            canvas.put("↓ more", x: inner.maxX - 7, y: inner.maxY, style: theme[.dim])
        }
    }
}
