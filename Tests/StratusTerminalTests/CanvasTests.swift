import Testing
@testable import StratusTerminal

@Suite struct CanvasTests {
    @Test func putWritesAndReturnsWidth() {
        var canvas = Canvas(width: 10, height: 2)
        let bold = Style(.bold)
        #expect(canvas.put("abc", x: 1, y: 0, style: bold) == 3)
        #expect(canvas.lines() == [" abc      ", "          "])
        #expect(canvas[1, 0] == Cell("a", style: bold))
        #expect(canvas[0, 0] == .blank)
    }

    @Test func putClipsAtTheRightEdgeAndMaxWidth() {
        var canvas = Canvas(width: 5, height: 1)
        #expect(canvas.put("abcdefgh", x: 2, y: 0) == 3)
        #expect(canvas.text == "  abc")
        var limited = Canvas(width: 10, height: 1)
        #expect(limited.put("abcdefgh", x: 0, y: 0, maxWidth: 4) == 4)
        #expect(limited.text == "abcd")
        #expect(limited.put("zz", x: 0, y: 5) == 0)  // row outside
    }

    @Test func wideCharactersTakeALeadAndAContinuationCell() {
        var canvas = Canvas(width: 6, height: 1)
        #expect(canvas.put("漢字", x: 0, y: 0) == 4)
        #expect(canvas[0, 0].symbol == "漢")
        #expect(canvas[1, 0].isContinuation)
        #expect(canvas[2, 0].symbol == "字")
        #expect(canvas[3, 0].isContinuation)
        #expect(canvas.lines() == ["漢字  "])
    }

    @Test func wideCharacterStraddlingTheEdgeBecomesASpace() {
        var canvas = Canvas(width: 5, height: 1, fill: Cell("."))
        #expect(canvas.put("漢字漢", x: 0, y: 0) == 5)
        #expect(canvas.lines() == ["漢字 "])
        #expect(!canvas[4, 0].isContinuation)

        var bounded = Canvas(width: 8, height: 1, fill: Cell("."))
        #expect(bounded.put("a👍b", x: 0, y: 0, maxWidth: 2) == 2)
        #expect(bounded.lines() == ["a ......"])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(width: 6, height: 1)
        canvas.put("漢字", x: 0, y: 0)
        canvas.put("x", x: 1, y: 0)  // over the continuation of 漢
        #expect(canvas.lines() == [" x字  "])
        canvas.put("y", x: 2, y: 0)  // over the lead of 字
        #expect(canvas.lines() == [" xy   "])
        #expect(canvas.cells.allSatisfy { !$0.isContinuation })
    }

    @Test func combiningMarksJoinTheirBase() {
        var canvas = Canvas(width: 4, height: 1)
        #expect(canvas.put("e\u{0301}x", x: 0, y: 0) == 2)
        #expect(canvas[0, 0].symbol == "e\u{0301}")
        #expect(canvas[1, 0].symbol == "x")
    }

    @Test func controlCharactersAreMadeVisible() {
        var canvas = Canvas(width: 6, height: 1)
        canvas.put("a\tb\nc\u{7}", x: 0, y: 0)
        #expect(canvas.lines() == ["a b↵c\u{FFFD}"])
    }

    @Test func regionsUseLocalCoordinatesAndClip() {
        var canvas = Canvas(width: 10, height: 3, fill: Cell("."))
        canvas.region(Rect(x: 2, y: 1, width: 4, height: 1)) { pane in
            #expect(pane.bounds == Rect(x: 0, y: 0, width: 4, height: 1))
            #expect(pane.put("abcdefg", x: 0, y: 0) == 4)
            #expect(pane.put("zz", x: 0, y: 1) == 0)
            pane.region(Rect(x: 3, y: 0, width: 5, height: 1)) { inner in
                inner.put("漢", x: 0, y: 0)  // one column left in the parent: a space
            }
        }
        #expect(canvas.lines() == ["..........", "..abc ....", ".........."])
    }

    @Test func fillAndRestyle() {
        var canvas = Canvas(width: 4, height: 2)
        let selected = Style(.reverse)
        canvas.fill(Rect(x: 1, y: 0, width: 2, height: 2), style: selected, symbol: "#")
        #expect(canvas.lines() == [" ## ", " ## "])
        canvas.put("ab", x: 0, y: 1)
        canvas.setStyle(selected, in: Rect(x: 0, y: 1, width: 4, height: 1))
        #expect(canvas.styleLines { $0 == selected ? "s" : "." } == [".ss.", "ssss"])
    }

    @Test func boxSnapshot() {
        var canvas = Canvas(width: 16, height: 5)
        let inner = canvas.box(Rect(x: 0, y: 0, width: 16, height: 5), title: "Records")
        #expect(inner == Rect(x: 1, y: 1, width: 14, height: 3))
        canvas.put("漢字 👍", x: inner.x, y: inner.y)
        canvas.divider(across: Rect(x: 0, y: 0, width: 16, height: 5), y: 2)
        let expected = """
            ┌─ Records ────┐
            │漢字 👍       │
            ├──────────────┤
            │              │
            └──────────────┘
            """
        #expect(canvas.text == expected)
    }

    @Test func boxTitleIsTruncatedAndAsciiGlyphsWork() {
        var canvas = Canvas(width: 10, height: 3)
        canvas.box(Rect(x: 0, y: 0, width: 10, height: 3), title: "A long title", glyphs: .ascii)
        #expect(canvas.text == "+- A l… -+\n|        |\n+--------+")
    }

    @Test func cursorFollowsRegionCoordinates() {
        var canvas = Canvas(width: 10, height: 5)
        canvas.region(Rect(x: 3, y: 2, width: 4, height: 2)) { pane in
            pane.showCursor(x: 1, y: 1)
        }
        #expect(canvas.cursor == Point(x: 4, y: 3))
        canvas.region(Rect(x: 3, y: 2, width: 4, height: 2)) { pane in
            pane.showCursor(x: 9, y: 0)  // outside the region
        }
        #expect(canvas.cursor == nil)
    }
}
