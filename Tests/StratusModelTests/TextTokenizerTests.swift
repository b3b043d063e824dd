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

    @Test func emptyAndSymbolsOnly() {
        #expect(TextTokenizer.tokens("") == [])
        #expect(TextTokenizer.tokens("👍 -- !!") == [])
    }
}
