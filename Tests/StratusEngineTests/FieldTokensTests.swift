import Foundation
import Testing
import StratusModel
@testable import StratusEngine

/// A record's tokens made ahead as one buffer of bytes must be, field by field, exactly the
/// tokens the tokenizer gives each value: the full-text row is built from them, and the
/// in-memory evaluator matches with the tokenizer itself.
@Suite struct FieldTokensTests {
    private func collected(_ tokens: FieldTokens, _ name: String) -> [String]? {
        var found: [String] = []
        return tokens.forEachToken(of: name, { found.append(String(decoding: $0, as: UTF8.self)) }) ? found : nil
    }

    @Test func eachFieldHasTheTokenizersTokens() {
        var generator = SeededGenerator(seed: 31)
        let pieces = ["Harbour", "the", "AND", " ", ", ", "Café", "e\u{301}", "東京", "👍🏽", "2024-05", "ß", "-", "", "ﬁne", "İ", "a"]
        func text() -> String { (0..<generator.below(9)).map { _ in pieces[generator.below(pieces.count)] }.joined() }
        for _ in 0..<400 {
            var fields: [String: FieldValue] = [:]
            for index in 0..<generator.below(5) {
                switch generator.below(4) {
                case 0: fields["s\(index)"] = .string(text())
                case 1: fields["l\(index)"] = .list(.string, (0..<generator.below(4)).map { _ in .string(text()) })
                case 2: fields["n\(index)"] = .int64(Int64(generator.below(100)))
                default: fields["d\(index)"] = .list(.int64, [.int64(1)])
                }
            }
            let tokens = FieldTokens(fields)
            for (name, value) in fields {
                let expected = TextTokenizer.tokens(of: value)
                if value.type.base == .string {
                    #expect(collected(tokens, name) == expected, "\(name): \(value)")
                } else {
                    // Not a string: not tokenized ahead, so the writer's fallback says none.
                    #expect(collected(tokens, name) == nil)
                    #expect(expected.isEmpty)
                }
                var fallback: [String] = []
                FieldTokens.forEachToken(of: value, named: name, known: nil) { fallback.append(String(decoding: $0, as: UTF8.self)) }
                #expect(fallback == expected)
            }
            #expect(collected(tokens, "absent") == nil)
            // The full-text row: every string field's tokens in the fields' order, each behind
            // the prefix, one space apart.
            let prefix = generator.below(2) == 0 ? "z4t2x" : ""
            let words = fields.flatMap { $0.value.type.base == .string ? TextTokenizer.tokens(of: $0.value) : [] }
            #expect(String(decoding: tokens.scopedText(prefix: Array(prefix.utf8)), as: UTF8.self) == words.map { prefix + $0 }.joined(separator: " "))
        }
    }

    @Test func onlyStopWordsAndSymbolsGiveNoTokens() {
        let tokens = FieldTokens(["a": .string("the and of"), "b": .string("👍 -- !!"), "c": .string(""), "d": .list(.string, [])])
        for name in ["a", "b", "c", "d"] { #expect(collected(tokens, name) == []) }
    }
}
