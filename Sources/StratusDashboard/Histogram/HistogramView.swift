import StratusTerminal

/// The histogram dialog: one bar per bin or value, scaled to the widest, with its count, and
/// a note when the result was sampled or records lack the field. The bar under the cursor is
/// highlighted; Enter filters the query to it.
enum HistogramView {
    static func draw(_ histogram: ValueHistogram, state: DashboardState, in canvas: inout Canvas) {
        let theme = state.theme
        let labelWidth = min(28, histogram.bars.map { DisplayWidth.of($0.label) }.max() ?? 4)
        let countWidth = histogram.bars.map { $0.count.formatted().count }.max() ?? 1
        let notes = note(histogram)
        let width = min(canvas.width - 4, max(50, labelWidth + countWidth + 30, DisplayWidth.of(notes) + 4))
        let height = min(canvas.height - 2, histogram.bars.count + 3 + (notes.isEmpty ? 0 : 1))
        let rect = ViewKit.centered(in: canvas.bounds, width: width, height: height)
        canvas.fill(rect, style: theme[.text])
        let inner = canvas.box(rect, title: "\(histogram.field) over \(histogram.records.formatted()) record\(histogram.records == 1 ? "" : "s")",
                               style: theme[.border], titleStyle: theme[.title])
        let most = max(1, histogram.bars.map(\.count).max() ?? 1)
        let barRoom = max(1, inner.width - labelWidth - countWidth - 4)
        let rows = max(1, inner.height - 1 - (notes.isEmpty ? 0 : 1))
        let first = max(0, min(histogram.selected - rows + 1, histogram.bars.count - rows))
        for (offset, bar) in histogram.bars.dropFirst(first).prefix(rows).enumerated() {
            let y = inner.y + offset
            canvas.put(DisplayWidth.fit(bar.label, to: labelWidth), x: inner.x + 1, y: y, style: theme[.text], maxWidth: labelWidth)
            let length = bar.count == 0 ? 0 : max(1, bar.count * barRoom / most)
            canvas.put(String(repeating: "█", count: length), x: inner.x + 2 + labelWidth, y: y, style: theme[.accent], maxWidth: barRoom)
            let count = bar.count.formatted()
            canvas.put(count, x: inner.maxX - DisplayWidth.of(count) - 1, y: y, style: theme[.dim])
            if first + offset == histogram.selected {
                canvas.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1)) { _ in theme[.selection] }
            }
        }
        if !notes.isEmpty { canvas.put(notes, x: inner.x + 1, y: inner.maxY - 2, style: theme[.warning], maxWidth: inner.width - 2) }
        canvas.put("Enter filters to the bar · Esc closes", x: inner.x + 1, y: inner.maxY - 1, style: theme[.dim], maxWidth: inner.width - 1)
    }

    static func note(_ histogram: ValueHistogram) -> String {
        var parts: [String] = []
        if histogram.sampled { parts.append("sampled: the first \(histogram.records.formatted()) records of a larger result") }
        if histogram.missing > 0 { parts.append("\(histogram.missing.formatted()) without the field") }
        return parts.joined(separator: " · ")
    }
}
