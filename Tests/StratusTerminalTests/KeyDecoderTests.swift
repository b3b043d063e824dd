import Testing
@testable import StratusTerminal

@Suite struct KeyDecoderTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func plainCharactersAndControlBytes() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(InputCode.characters("aé"), at: at(0)) == [.key(.char("a")), .key(.char("é"))])
        #expect(decoder.feed(.character("\r"), at: at(0)) == [.key(.enter)])
        #expect(decoder.feed(.character("\t"), at: at(0)) == [.key(.tab)])
        #expect(decoder.feed(.character("\u{7F}"), at: at(0)) == [.key(.backspace)])
        #expect(decoder.feed(.character("\u{03}"), at: at(0)) == [.key(.ctrl("c"))])
        #expect(decoder.feed(.character("\u{13}"), at: at(0)) == [.key(.ctrl("s"))])
        #expect(!decoder.isPending)
    }

    @Test func cursesKeyCodes() {
        var decoder = KeyDecoder()
        let codes: [Int32] = [CursesKey.up, CursesKey.down, CursesKey.left, CursesKey.right,
                              CursesKey.pageUp, CursesKey.pageDown, CursesKey.home, CursesKey.end,
                              CursesKey.backTab, CursesKey.delete, CursesKey.function(5)]
        let events = codes.flatMap { decoder.feed(.keyCode($0), at: at(0)) }
        #expect(events == [.key(.up), .key(.down), .key(.left), .key(.right), .key(.pageUp), .key(.pageDown),
                           .key(.home), .key(.end), .key(.backTab), .key(.delete), .key(.function(5))])
        #expect(decoder.feed(.keyCode(9999), at: at(0)) == [])
    }

    @Test func rawArrowSequencesAlsoDecode() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(InputCode.characters("\u{1B}[A"), at: at(0)) == [.key(.up)])
        #expect(decoder.feed(InputCode.characters("\u{1B}[1;5D"), at: at(0)) == [.key(.left)])
        #expect(decoder.feed(InputCode.characters("\u{1B}[6~"), at: at(0)) == [.key(.pageDown)])
        #expect(decoder.feed(InputCode.characters("\u{1B}OB"), at: at(0)) == [.key(.down)])
        #expect(decoder.feed(InputCode.characters("\u{1B}[Z"), at: at(0)) == [.key(.backTab)])
    }

    @Test func loneEscapeIsEscapeOnceTheDelayPasses() {
        var decoder = KeyDecoder(escapeTimeout: .milliseconds(25))
        #expect(decoder.feed(.character("\u{1B}"), at: at(0)) == [])
        #expect(decoder.isPending)
        #expect(decoder.deadline == at(25))
        #expect(decoder.flush(at: at(10)) == [])
        #expect(decoder.flush(at: at(25)) == [.key(.escape)])
        #expect(!decoder.isPending)
    }

    @Test func escapeThenQuickCharacterIsAlt() {
        var decoder = KeyDecoder(escapeTimeout: .milliseconds(25))
        #expect(decoder.feed(.character("\u{1B}"), at: at(0)) == [])
        #expect(decoder.feed(.character("x"), at: at(3)) == [.key(.alt("x"))])
    }

    @Test func escapeThenSlowCharacterIsTwoKeys() {
        var decoder = KeyDecoder(escapeTimeout: .milliseconds(25))
        #expect(decoder.feed(.character("\u{1B}"), at: at(0)) == [])
        #expect(decoder.feed(.character("x"), at: at(200)) == [.key(.escape), .key(.char("x"))])
    }

    @Test func escapeThenKeyCodeOrEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(.character("\u{1B}"), at: at(0)) == [])
        #expect(decoder.feed(.keyCode(CursesKey.up), at: at(1)) == [.key(.escape), .key(.up)])
        #expect(decoder.feed(.character("\u{1B}"), at: at(2)) == [])
        #expect(decoder.feed(.character("\u{1B}"), at: at(3)) == [.key(.escape)])
        #expect(decoder.flush(at: at(100)) == [.key(.escape)])
    }

    @Test func bracketedPasteIsOneLiteralEvent() {
        var decoder = KeyDecoder()
        let pasted = "\u{1B}[200~q: 漢字\r\nline 2\u{1B}[201~"
        #expect(decoder.feed(InputCode.characters(pasted), at: at(0)) == [.paste("q: 漢字\nline 2")])
        #expect(decoder.feed(.character("q"), at: at(1)) == [.key(.char("q"))])
    }

    @Test func pasteWaitsForItsEndMarker() {
        var decoder = KeyDecoder(pasteTimeout: .seconds(1))
        #expect(decoder.feed(InputCode.characters("\u{1B}[200~abc"), at: at(0)) == [])
        #expect(decoder.flush(at: at(500)) == [])  // still inside the paste
        #expect(decoder.feed(InputCode.characters("\u{1B}[201~"), at: at(600)) == [.paste("abc")])
        #expect(decoder.feed(InputCode.characters("\u{1B}[200~xy"), at: at(700)) == [])
        #expect(decoder.flush(at: at(1800)) == [.paste("xy")])  // end marker lost
    }

    @Test func keyNamesRoundTripForKeyMaps() {
        #expect(Key(name: "ctrl-c") == .ctrl("c"))
        #expect(Key(name: "Alt-x") == .alt("x"))
        #expect(Key(name: "PgDn") == .pageDown)
        #expect(Key(name: "f12") == .function(12))
        #expect(Key(name: "G") == .char("G"))
        #expect(Key(name: "space") == .char(" "))
        #expect(Key(name: "hyper-x") == nil)
        #expect(Key.ctrl("c").label == "Ctrl-C")
        #expect(Key.up.label == "↑")
    }
}
