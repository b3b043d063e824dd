import Testing
@testable import StratusTerminal

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnEach() {
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func cjkIsTwoColumnsEach() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("漢字のメモ") == 10)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth forms
        #expect(DisplayWidth.of("ｱｲ") == 2)  // halfwidth katakana stay narrow
    }

    @Test func combiningMarksTakeNoColumn() {
        let decomposed = "e\u{0301}"
        #expect(decomposed.count == 1)
        #expect(DisplayWidth.of(decomposed) == 1)
        #expect(DisplayWidth.of("Cafe\u{0301}") == 4)
        #expect(DisplayWidth.of(Unicode.Scalar(0x0301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)  // zero-width joiner
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)  // variation selector
        #expect(DisplayWidth.of(Unicode.Scalar(0x07)!) == 0)  // control
    }

    @Test func emojiAreTwoColumns() {
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin tone
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)  // ZWJ family
        #expect(DisplayWidth.of("🇯🇵") == 2)  // flag
        #expect(DisplayWidth.of("❤️") == 2)  // text-default base + U+FE0F
        #expect(DisplayWidth.of("❤") == 1)  // same base without the selector
        #expect(DisplayWidth.of("1️⃣") == 2)  // keycap
        #expect(DisplayWidth.of("a👍b") == 4)
    }

    @Test func truncationAddsEllipsisAndNeverSplitsWideCharacters() {
        #expect(DisplayWidth.truncate("hello", to: 10) == "hello")
        #expect(DisplayWidth.truncate("hello world", to: 8) == "hello w…")
        #expect(DisplayWidth.truncate("漢字漢字", to: 4) == "漢…")  // 3 columns: the next 漢 would straddle
        #expect(DisplayWidth.truncate("漢字漢字", to: 5) == "漢字…")
        #expect(DisplayWidth.truncate("ab👨‍👩‍👧cd", to: 4) == "ab…")
        #expect(DisplayWidth.truncate("hello", to: 1) == "…")
        #expect(DisplayWidth.truncate("hello", to: 0) == "")
    }

    @Test func fitGivesExactWidth() {
        #expect(DisplayWidth.fit("漢字漢字", to: 4) == "漢… ")
        #expect(DisplayWidth.of(DisplayWidth.fit("漢字漢字", to: 4)) == 4)
        #expect(DisplayWidth.fit("ab", to: 5) == "ab   ")
        #expect(DisplayWidth.fit("42", to: 5, alignment: .right) == "   42")
        #expect(DisplayWidth.fit("ab", to: 6, alignment: .center) == "  ab  ")
        #expect(DisplayWidth.pad("漢", to: 3) == "漢 ")
    }
}
