import StratusTerminal

/// Small drawing helpers shared by the views.
enum ViewKit {
    /// Lines of at most `width` columns, broken at spaces where possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            var lastSpace: String.Index?
            for character in paragraph {
                let characterWidth = DisplayWidth.of(character)
                if lineWidth + characterWidth > width {
                    if let space = lastSpace {
                        let head = String(line[..<space])
                        let tail = String(line[line.index(after: space)...])
                        lines.append(head)
                        line = tail
                        lineWidth = DisplayWidth.of(tail)
                    } else {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    lastSpace = nil
                }
                if character == " " { lastSpace = line.endIndex }
                line.append(character)
                lineWidth += characterWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// A rectangle of at most `width` x `height` centred in `area`.
    static func centered(in area: Rect, width: Int, height: Int) -> Rect {
        let w = min(width, area.width)
        let h = min(height, area.height)
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }

    /// Draws `label` then `value` ("Type Trip"), returning the columns used.
    @discardableResult
    static func labeled(_ canvas: inout Canvas, x: Int, y: Int, label: String, value: String, key: String?,
                        theme: Theme, maxWidth: Int) -> Int {
        var used = canvas.put(label + " ", x: x, y: y, style: theme[.dim], maxWidth: maxWidth)
        used += canvas.put(value, x: x + used, y: y, style: theme[.title], maxWidth: maxWidth - used)
        if let key {
            used += canvas.put(" (" + key + ")", x: x + used, y: y, style: theme[.hintKey].adding(.dim), maxWidth: maxWidth - used)
        }
        return used
    }

    struct Column {
        var title: String
        var width: Int
        var alignment: DisplayWidth.Alignment = .left
    }

    /// A table: header row, then rows `cursor.offset ..< offset + visible` (only those are
    /// asked for), the selected one highlighted.
    static func table(_ canvas: inout Canvas, rect: Rect, columns: [Column], rowCount: Int, cursor: ListCursor,
                      theme: Theme, focused: Bool = true, cell: (Int, Int) -> (String, Style?)) {
        guard rect.height > 0, rect.width > 0 else { return }
        var x = rect.x
        for column in columns where x < rect.maxX {
            canvas.put(DisplayWidth.fit(column.title, to: column.width, alignment: column.alignment), x: x, y: rect.y,
                       style: theme[.header], maxWidth: rect.maxX - x)
            x += column.width + 1
        }
        let visible = rect.height - 1
        guard visible > 0 else { return }
        for line in 0..<visible {
            let row = cursor.offset + line
            guard row < rowCount else { break }
            let y = rect.y + 1 + line
            var x = rect.x
            for (index, column) in columns.enumerated() where x < rect.maxX {
                let (text, style) = cell(row, index)
                canvas.put(DisplayWidth.fit(text, to: column.width, alignment: column.alignment), x: x, y: y,
                           style: style ?? theme[.text], maxWidth: min(column.width, rect.maxX - x))
                x += column.width + 1
            }
            if row == cursor.selected {
                let selection = focused ? theme[.selection] : theme[.text].adding(.underline)
                canvas.restyle(Rect(x: rect.x, y: y, width: rect.width, height: 1)) { old in
                    var style = selection
                    if old.foreground != .default, selection.foreground == .default { style.foreground = old.foreground }
                    return style
                }
            }
        }
    }

    /// Column widths: each at least its title and at most `cap`, fitted to the values shown.
    static func widths(titles: [String], values: [[String]], cap: Int, minimum: Int = 3) -> [Int] {
        titles.indices.map { index in
            var width = DisplayWidth.of(titles[index])
            for row in values where index < row.count {
                width = max(width, DisplayWidth.of(row[index]))
                if width >= cap { break }
            }
            return max(minimum, min(width, cap))
        }
    }

    /// A number as short as it reads: whole ones with thousands separators, others to 4
    /// significant digits.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return (value < 0 ? "-" : "") + count(Int(abs(value))) }
        return String(format: "%.4g", value)
    }

    /// `1 event`, `2,400 events`: a count with its noun, singular or plural.
    static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count(number)) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    static func count(_ number: Int) -> String {
        var text = String(number)
        var index = text.count - 3
        while index > 0 {
            text.insert(",", at: text.index(text.startIndex, offsetBy: index))
            index -= 3
        }
        return text
    }
}
