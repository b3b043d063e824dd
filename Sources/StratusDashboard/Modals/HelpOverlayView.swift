import StratusTerminal

/// `?`: every key of the current view, from the key map, most specific section first.
enum HelpOverlayView {
    static func lines(_ help: HelpState) -> [(key: String, text: String, heading: Bool)] {
        var lines: [(String, String, Bool)] = []
        let bindings = KeyMap.bindings(in: help.contexts)
        for context in help.contexts {
            let section = bindings.filter { $0.context == context }
            guard !section.isEmpty else { continue }
            if !lines.isEmpty { lines.append(("", "", false)) }
            lines.append((context.title, "", true))
            for binding in section {
                let keys = binding.keys.map(\.label).joined(separator: " ")
                lines.append((keys, binding.help, false))
            }
        }
        return lines
    }

    static func draw(_ help: HelpState, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        canvas.fill(canvas.bounds, style: theme[.text])
        let inner = canvas.box(canvas.bounds, title: "Keys: \(help.title)  (Esc closes)", style: theme[.border], titleStyle: theme[.title])
        let all = lines(help)
        let rows = inner.height
        let scroll = min(help.scroll, max(0, all.count - rows))
        let keyWidth = min(24, (all.filter { !$0.heading }.map { DisplayWidth.of($0.key) }.max() ?? 6) + 2)
        for (index, line) in all.dropFirst(scroll).prefix(rows).enumerated() {
            let y = inner.y + index
            if line.heading {
                canvas.put(line.key, x: inner.x + 1, y: y, style: theme[.header], maxWidth: inner.width - 2)
            } else {
                canvas.put(DisplayWidth.fit(line.key, to: keyWidth), x: inner.x + 2, y: y, style: theme[.hintKey])
                canvas.put(line.text, x: inner.x + 3 + keyWidth, y: y, style: theme[.text], maxWidth: inner.maxX - inner.x - 4 - keyWidth)
            }
        }
        if all.count > rows + scroll {
            canvas.put("↓ more", x: inner.maxX - 7, y: inner.maxY, style: theme[.dim])
        }
    }
}
