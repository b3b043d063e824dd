/// An in-memory grid of cells that a frame is drawn into, then handed to a ``Backend``.
///
/// Immediate mode: the app redraws the whole frame into a fresh canvas each time and the
/// backend diffs it against the previous one, so views never track what is on screen.
/// Drawing uses local coordinates of the current region (see ``region(_:_:)``) and is clipped
/// to it; wide characters are never split: one that would cross the edge becomes a space.
public struct Canvas: Equatable, Sendable {
    /// The size of the whole grid (what the backend presents).
    public let gridSize: Size
    /// All cells, row by row (`y * gridSize.width + x`), in grid coordinates.
    public private(set) var cells: [Cell]
    /// Where the terminal cursor goes after this frame, in grid coordinates; nil hides it.
    public private(set) var cursor: Point?

    /// Grid position of the current region's local (0, 0).
    private var origin = Point(x: 0, y: 0)
    /// Size of the current region, as requested.
    private var regionSize: Size
    /// Grid cells drawing may touch (the current region clipped by its parents).
    private var clip: Rect

    public init(width: Int, height: Int, fill: Cell = .blank) {
        gridSize = Size(width: width, height: height)
        regionSize = gridSize
        clip = Rect(x: 0, y: 0, width: gridSize.width, height: gridSize.height)
        cells = Array(repeating: fill, count: gridSize.width * gridSize.height)
    }

    public init(size: Size, fill: Cell = .blank) {
        self.init(width: size.width, height: size.height, fill: fill)
    }

    // MARK: - Geometry

    /// Width of the current region.
    public var width: Int { regionSize.width }
    /// Height of the current region.
    public var height: Int { regionSize.height }
    /// The current region in its own coordinates: origin (0, 0).
    public var bounds: Rect { Rect(x: 0, y: 0, width: regionSize.width, height: regionSize.height) }

    /// Runs `body` with drawing confined to `rect` (local coordinates of the current region),
    /// with `rect`'s top-left as the new (0, 0). Regions nest; clipping accumulates.
    @discardableResult
    public mutating func region<Result>(_ rect: Rect, _ body: (inout Canvas) throws -> Result) rethrows -> Result {
        let saved = (origin, regionSize, clip)
        origin = Point(x: origin.x + rect.x, y: origin.y + rect.y)
        regionSize = rect.size
        clip = clip.intersection(Rect(origin: origin, size: rect.size))
        defer { (origin, regionSize, clip) = saved }
        return try body(&self)
    }

    /// The cell at a local position; a blank cell outside the grid.
    public subscript(x: Int, y: Int) -> Cell {
        let column = origin.x + x
        let row = origin.y + y
        guard column >= 0, column < gridSize.width, row >= 0, row < gridSize.height else { return .blank }
        return cells[row * gridSize.width + column]
    }

    // MARK: - Drawing

    /// Draws `text` on one row starting at local (`x`, `y`), at most `maxWidth` columns,
    /// clipped to the region. Returns the columns advanced (including a space that stands in
    /// for a wide character cut by the edge). Tabs become a space, line breaks "↵", other
    /// control characters "�"; a combining mark with no base in this call is dropped.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain, maxWidth: Int = .max) -> Int {
        let row = origin.y + y
        let start = origin.x + x
        guard row >= clip.minY, row < clip.maxY, maxWidth > 0 else { return 0 }
        let (sum, overflow) = start.addingReportingOverflow(maxWidth)
        let limit = min(clip.maxX, overflow ? Int.max : sum)
        var column = start
        var lastLead: Int?
        for character in text {
            if column >= limit { break }
            let (symbol, width) = Canvas.printable(character)
            if width == 0 {
                if let lead = lastLead { cells[lead].symbol.append(symbol) }
                continue
            }
            if column + width > limit {
                if column >= clip.minX { setCell(row: row, column: column, to: Cell(" ", style: style)) }
                column += 1
                break
            }
            if column < clip.minX {
                if column + width > clip.minX { setCell(row: row, column: clip.minX, to: Cell(" ", style: style)) }
                column += width
                continue
            }
            setCell(row: row, column: column, to: Cell(symbol, style: style), width: width)
            lastLead = row * gridSize.width + column
            column += width
        }
        return column - start
    }

    /// Paints `rect` (local) with `symbol` (one narrow character) in `style`.
    public mutating func fill(_ rect: Rect, style: Style = .plain, symbol: String = " ") {
        let area = absolute(rect)
        guard !area.isEmpty else { return }
        for row in area.minY..<area.maxY {
            for column in area.minX..<area.maxX {
                setCell(row: row, column: column, to: Cell(symbol, style: style))
            }
        }
    }

    /// Changes the style of every cell in `rect` (local), keeping the text: for highlighting a
    /// row after it was drawn.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        restyle(rect) { _ in style }
    }

    /// Transforms the style of every cell in `rect` (local), keeping the text.
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let area = absolute(rect)
        guard !area.isEmpty else { return }
        for row in area.minY..<area.maxY {
            for column in area.minX..<area.maxX {
                let index = row * gridSize.width + column
                cells[index].style = transform(cells[index].style)
            }
        }
    }

    /// A horizontal line of `glyph` from local (`x`, `y`), `length` columns long.
    public mutating func horizontalLine(x: Int, y: Int, length: Int, style: Style = .plain, glyph: String = BorderGlyphs.single.horizontal) {
        fill(Rect(x: x, y: y, width: length, height: 1), style: style, symbol: glyph)
    }

    /// A vertical line of `glyph` from local (`x`, `y`), `length` rows long.
    public mutating func verticalLine(x: Int, y: Int, length: Int, style: Style = .plain, glyph: String = BorderGlyphs.single.vertical) {
        fill(Rect(x: x, y: y, width: 1, height: length), style: style, symbol: glyph)
    }

    /// Draws a frame around `rect` (local) with an optional title on the top edge
    /// (`┌─ Title ──┐`, truncated with "…" to fit) and returns the inside rectangle.
    @discardableResult
    public mutating func box(
        _ rect: Rect, title: String? = nil, style: Style = .plain, titleStyle: Style? = nil,
        glyphs: BorderGlyphs = .single
    ) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else {
            fill(rect, style: style)
            return Rect(x: rect.x, y: rect.y, width: 0, height: 0)
        }
        horizontalLine(x: rect.x + 1, y: rect.y, length: rect.width - 2, style: style, glyph: glyphs.horizontal)
        horizontalLine(x: rect.x + 1, y: rect.maxY - 1, length: rect.width - 2, style: style, glyph: glyphs.horizontal)
        verticalLine(x: rect.x, y: rect.y + 1, length: rect.height - 2, style: style, glyph: glyphs.vertical)
        verticalLine(x: rect.maxX - 1, y: rect.y + 1, length: rect.height - 2, style: style, glyph: glyphs.vertical)
        put(glyphs.topLeft, x: rect.x, y: rect.y, style: style)
        put(glyphs.topRight, x: rect.maxX - 1, y: rect.y, style: style)
        put(glyphs.bottomLeft, x: rect.x, y: rect.maxY - 1, style: style)
        put(glyphs.bottomRight, x: rect.maxX - 1, y: rect.maxY - 1, style: style)
        if let title, !title.isEmpty, rect.width >= 6 {
            let room = rect.width - 4
            put(" " + DisplayWidth.truncate(title, to: room - 2) + " ", x: rect.x + 2, y: rect.y, style: titleStyle ?? style, maxWidth: room)
        }
        return rect.inset(by: 1)
    }

    /// A horizontal divider across a box drawn at `rect`, on local row `y`: `├────┤`.
    public mutating func divider(across rect: Rect, y: Int, style: Style = .plain, glyphs: BorderGlyphs = .single) {
        guard rect.width >= 2 else { return }
        put(glyphs.teeRight, x: rect.x, y: y, style: style)
        horizontalLine(x: rect.x + 1, y: y, length: rect.width - 2, style: style, glyph: glyphs.horizontal)
        put(glyphs.teeLeft, x: rect.maxX - 1, y: y, style: style)
    }

    /// Shows the terminal cursor at a local position (text input), if inside the region.
    public mutating func showCursor(x: Int, y: Int) {
        let point = Point(x: origin.x + x, y: origin.y + y)
        cursor = clip.contains(x: point.x, y: point.y) ? point : nil
    }

    /// Hides the terminal cursor (the default).
    public mutating func hideCursor() {
        cursor = nil
    }

    // MARK: - Dumps (snapshot tests)

    /// The whole grid as text, one string per row (continuation cells contribute nothing, so a
    /// row of wide characters is shorter in `count` but not in columns).
    public func lines(trimmingTrailingSpaces: Bool = false) -> [String] {
        (0..<gridSize.height).map { row in
            var line = ""
            for column in 0..<gridSize.width {
                line += cells[row * gridSize.width + column].symbol
            }
            guard trimmingTrailingSpaces else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The grid as one string, rows joined by newlines, trailing spaces trimmed.
    public var text: String { lines(trimmingTrailingSpaces: true).joined(separator: "\n") }

    /// A parallel layer for snapshots: one letter per column naming the cell's style
    /// (`letter` decides, e.g. "." for plain, "s" for the selection style).
    public func styleLines(_ letter: (Style) -> Character) -> [String] {
        (0..<gridSize.height).map { row in
            String((0..<gridSize.width).map { column in letter(cells[row * gridSize.width + column].style) })
        }
    }

    // MARK: - Private

    private func absolute(_ rect: Rect) -> Rect {
        Rect(x: origin.x + rect.x, y: origin.y + rect.y, width: rect.width, height: rect.height).intersection(clip)
    }

    /// Writes a cell (and its continuation when wide), repairing wide characters it cuts:
    /// a lead whose continuation is overwritten, or a continuation whose lead is, becomes a space.
    private mutating func setCell(row: Int, column: Int, to cell: Cell, width: Int = 1) {
        let rowStart = row * gridSize.width
        let index = rowStart + column
        if cells[index].isContinuation, column > 0 {
            cells[index - 1].symbol = " "
        }
        cells[index] = cell
        if width == 2, column + 1 < gridSize.width {
            cells[index + 1] = .continuation(style: cell.style)
        }
        let after = column + width
        if after < gridSize.width, cells[rowStart + after].isContinuation {
            cells[rowStart + after].symbol = " "
        }
    }

    /// What to draw for a character, and how wide it is.
    private static func printable(_ character: Character) -> (String, Int) {
        if character.isASCII, let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
            return (String(character), 1)
        }
        switch character {
        case "\t": return (" ", 1)
        case "\n", "\r", "\r\n": return ("↵", 1)
        default: break
        }
        let scalars = character.unicodeScalars
        if scalars.allSatisfy({ $0.properties.generalCategory == .control }) {
            return ("\u{FFFD}", 1)
        }
        return (String(character), DisplayWidth.of(character))
    }
}
