import StratusTerminal

/// One line of editable text with a cursor, moved and edited by grapheme clusters (so a CJK
/// character or an emoji is one step). Pure value; views draw it with ``TextFieldView``.
struct TextField: Hashable, Sendable {
    private(set) var text: String
    /// The cursor, in characters from the start (0...count).
    private(set) var cursor: Int

    init(_ text: String = "") {
        self.text = text
        self.cursor = text.count
    }

    var isEmpty: Bool { text.isEmpty }

    mutating func set(_ newText: String) {
        text = newText
        cursor = newText.count
    }

    mutating func insert(_ piece: String) {
        // A field is one line: pasted line breaks become spaces.
        let flat = String(piece.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\t" ? " " : $0 })
        let index = text.index(text.startIndex, offsetBy: cursor)
        text.insert(contentsOf: flat, at: index)
        cursor += flat.count
    }

    /// Applies an editing key; false when the key is not an editing key (the caller handles it).
    @discardableResult
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let character):
            insert(String(character))
        case .backspace, .ctrl("h"):
            guard cursor > 0 else { return true }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .delete, .ctrl("d"):
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .left, .ctrl("b"):
            cursor = max(0, cursor - 1)
        case .right, .ctrl("f"):
            cursor = min(text.count, cursor + 1)
        case .home, .ctrl("a"):
            cursor = 0
        case .end, .ctrl("e"):
            cursor = text.count
        case .ctrl("u"):
            text.removeFirst(cursor)
            cursor = 0
        case .ctrl("k"):
            text = String(text.prefix(cursor))
        case .ctrl("w"):
            let before = Array(text.prefix(cursor))
            var start = before.count
            while start > 0, before[start - 1] == " " { start -= 1 }
            while start > 0, before[start - 1] != " " { start -= 1 }
            text = String(before[..<start]) + String(text.dropFirst(cursor))
            cursor = start
        default:
            return false
        }
        return true
    }

    /// Display column of the cursor.
    var cursorColumn: Int { DisplayWidth.of(text.prefix(cursor)) }

    /// Display columns covered by the code points `offset ..< offset + length` (for underlining
    /// an error the checker placed in code points).
    static func columns(of text: String, scalarOffset offset: Int, length: Int) -> Range<Int> {
        var scalars = 0
        var column = 0
        var start: Int?
        var end: Int?
        let stop = offset + max(length, 1)
        for character in text {
            let count = character.unicodeScalars.count
            let width = DisplayWidth.of(character)
            if start == nil, scalars + count > offset { start = column }
            if start != nil, end == nil, scalars >= stop { end = column }
            scalars += count
            column += width
        }
        let lower = start ?? column
        let upper = end ?? (start == nil ? column + 1 : column)
        return lower..<max(upper, lower + 1)
    }
}

/// Draws a ``TextField`` on one row, scrolled so the cursor is visible.
enum TextFieldView {
    /// Draws `field` at (x, y) in `width` columns; shows the cursor when `focused`. Returns the
    /// horizontal scroll (columns hidden on the left), for drawing underlines below.
    @discardableResult
    static func draw(_ field: TextField, in canvas: inout Canvas, x: Int, y: Int, width: Int, style: Style,
                     focused: Bool, placeholder: String = "") -> Int {
        guard width > 0 else { return 0 }
        canvas.fill(Rect(x: x, y: y, width: width, height: 1), style: style)
        if field.text.isEmpty, !placeholder.isEmpty, !focused {
            canvas.put(placeholder, x: x, y: y, style: style.adding(.dim), maxWidth: width)
        }
        let cursorColumn = field.cursorColumn
        let scroll = max(0, cursorColumn - (width - 1))
        var skipped = 0
        var visible = ""
        for character in field.text {
            let characterWidth = DisplayWidth.of(character)
            if skipped < scroll {
                skipped += characterWidth
                continue
            }
            visible.append(character)
        }
        canvas.put(visible, x: x + max(0, skipped - scroll), y: y, style: style, maxWidth: width)
        if focused { canvas.showCursor(x: x + cursorColumn - scroll, y: y) }
        return scroll
    }
}
