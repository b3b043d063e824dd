import Testing
@testable import StratusModel

@Suite struct TextTokenizerTests {
    @Test func foldsCaseAndDiacriticsAndDropsStopWords() {
        #expect(TextTokenizer.tokens("The Café of Bob SMITH") == ["cafe", "bob", "smith"])
    }

    @Test func splitsOnPunctuationAndKeepsDigits() {
        #expect(TextTokenizer.tokens("rock'n'roll, 2024-05") == ["rock", "n", "roll", "2024", "05"])
    }

    @Test func keepsCJKAsLetters() {
        #expect(TextTokenizer.tokens("東京 タワー") == ["東京", "タワー"])
    }

    @Test func dropsEveryStopWordAndOnlyThose() {
        for word in TextTokenizer.stopWords {
            #expect(TextTokenizer.tokens("x \(word) \(word.uppercased()), y") == ["x", "y"], "\(word)")
            // One letter more or less is an ordinary word.
            #expect(TextTokenizer.tokens("\(word)q") == ["\(word)q"])
            if word.count > 1 {
                let shorter = String(word.dropLast())
                #expect(TextTokenizer.tokens(shorter) == (TextTokenizer.stopWords.contains(shorter) ? [] : [shorter]))
            }
        }
    }

    /// Stop words are found by their bytes packed into one number (up to seven bytes): words
    /// at and past that length, and stop words run together, are ordinary words.
    @Test func wordsAroundTheStopWordKeysLengthAreKept() {
        #expect(TextTokenizer.tokens("theirxy thereabc THEREABC Theirs thethe andand") == ["theirxy", "thereabc", "thereabc", "theirs", "thethe", "andand"])
        #expect(TextTokenizer.tokens("THEIR there, These; WITH") == [])
    }

    @Test func emptyAndSymbolsOnly() {
        #expect(TextTokenizer.tokens("") == [])
        #expect(TextTokenizer.tokens("👍 -- !!") == [])
    }
}

@Suite struct TextTokenizerPiecesTests {
    /// Cutting at ASCII separators and lower-casing ASCII words must give exactly the tokens of
    /// folding the whole text, whatever is mixed in.
    @Test func agreeWithFoldingTheWholeText() {
        var generator = SeededGenerator(seed: 7)
        let ascii = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        let others = ["é", "e\u{301}", "\u{301}", "東京", "ß", "Ａ", "ｂ", "ﬁ", "👍🏽", "、", "\u{A0}", "\u{200D}", "Ö", "ı", "İ", "١٢", "½", "Ω", "ﬀ", "ǅ"]
        for round in 0..<4000 {
            let length = generator.below(20)
            let text = (0..<length).map { _ in
                round % 2 == 0 || generator.below(3) > 0 ? ascii[generator.below(128)] : others[generator.below(others.count)]
            }.joined()
            #expect(TextTokenizer.tokens(text) == TextTokenizer.unicodeTokens(text), "\(text.debugDescription)")
        }
        #expect(TextTokenizer.tokens("THE Harbour, 2024 the Café-au-lait") == ["harbour", "2024", "cafe", "au", "lait"])
    }
}

@Suite struct CaseFoldingTests {
    @Test func keyIsTheLowercasedText() {
        var generator = SeededGenerator(seed: 11)
        let pieces = ["a", "Z", "q", "É", "é", "東", "ß", "İ", " ", "9", "_", "Ω"]
        for _ in 0..<500 {
            let text = (0..<generator.below(8)).map { _ in pieces[generator.below(pieces.count)] }.joined()
            #expect(CaseFolding.key(text) == text.lowercased(), "\(text)")
        }
        #expect(CaseFolding.key("harbour 9") == "harbour 9")
        #expect(CaseFolding.key("Harbour") == "harbour")
        #expect(CaseFolding.key("ÉCOLE") == "école")
    }
}
