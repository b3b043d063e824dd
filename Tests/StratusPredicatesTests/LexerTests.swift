import Testing
@testable import StratusPredicates

@Suite struct LexerTests {
    func kinds(_ source: String) throws -> [TokenKind] {
        try PredicateLexer.tokens(of: source).map(\.kind).dropLast()
    }

    @Test func operatorsAndPunctuation() throws {
        #expect(try kinds("= == != <> < <= =< > >= => && || ! ** * << >> & | ^ ~ := ( ) { } [ ] , .") == [
            .symbol(.equal), .symbol(.equal), .symbol(.notEqual), .symbol(.notEqual), .symbol(.less),
            .symbol(.lessOrEqual), .symbol(.lessOrEqual), .symbol(.greater), .symbol(.greaterOrEqual),
            .symbol(.greaterOrEqual), .symbol(.andAnd), .symbol(.orOr), .symbol(.bang), .symbol(.power),
            .symbol(.star), .symbol(.shiftLeft), .symbol(.shiftRight), .symbol(.ampersand), .symbol(.pipe),
            .symbol(.caret), .symbol(.tilde), .symbol(.assign), .symbol(.leftParen), .symbol(.rightParen),
            .symbol(.leftBrace), .symbol(.rightBrace), .symbol(.leftBracket), .symbol(.rightBracket),
            .symbol(.comma), .symbol(.dot),
        ])
    }
}

@Suite struct LexerTokenTests {
    func tokens(_ source: String) throws -> [Token] { try PredicateLexer.tokens(of: source) }
    func kinds(_ source: String) throws -> [TokenKind] { try tokens(source).map(\.kind).dropLast() }

    @Test func rangesAreCodePointOffsets() throws {
        let result = try tokens("名前 == '😀x'")
        #expect(result.map(\.range) == [
            SourceRange(offset: 0, length: 2), SourceRange(offset: 3, length: 2), SourceRange(offset: 6, length: 4),
            SourceRange(offset: 10, length: 0),
        ])
        #expect(result[0].kind == .identifier("名前"))
        #expect(result[2].kind == .string("😀x"))
        #expect(result[3].kind == .endOfInput)
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try kinds("and AND And oR not Between beginsWITH truepredicate nil Null yes NO self") == [
            .keyword(.and), .keyword(.and), .keyword(.and), .keyword(.or), .keyword(.not), .keyword(.between),
            .keyword(.beginsWith), .keyword(.truePredicate), .keyword(.nil), .keyword(.null), .keyword(.yes),
            .keyword(.no), .keyword(.self),
        ])
        #expect(try kinds("UTI-CONFORMS-TO uti-equals uti-other ORDER AND_x") == [
            .keyword(.utiConformsTo), .keyword(.utiEquals), .identifier("uti"), .symbol(.minus), .identifier("other"),
            .identifier("ORDER"), .identifier("AND_x"),
        ])
    }

    @Test func identifiersVariablesEscapesAndSelectors() throws {
        #expect(try kinds("#size $var @count _a1 distanceToLocation:fromLocation: tokenize:using: now $x:=") == [
            .identifier("size"), .variable("var"), .atIdentifier("@count"), .identifier("_a1"),
            .selector("distanceToLocation:fromLocation:"), .selector("tokenize:using:"), .identifier("now"),
            .variable("x"), .symbol(.assign),
        ])
    }

    @Test func numbers() throws {
        #expect(try kinds("1 1.5 1e3 1E-3 .25 0x1f 0o17 0b11 18446744073709551615 18446744073709551616 1.x") == [
            .integer(1), .double(1.5), .double(1000), .double(0.001), .double(0.25), .integer(31), .integer(15),
            .integer(3), .integer(UInt64.max), .double(18446744073709551616), .integer(1), .symbol(.dot), .identifier("x"),
        ])
        #expect(try kinds("-5") == [.symbol(.minus), .integer(5)])
    }

    @Test func formatSpecifiers() throws {
        #expect(try kinds("%@ %K %d %ld %lld %i %u %f %lf %g %s %% %.2f %5d %hhd") == [
            .formatSpecifier("@"), .formatSpecifier("K"), .formatSpecifier("d"), .formatSpecifier("ld"),
            .formatSpecifier("lld"), .formatSpecifier("i"), .formatSpecifier("u"), .formatSpecifier("f"),
            .formatSpecifier("lf"), .formatSpecifier("g"), .formatSpecifier("s"), .formatSpecifier("%"),
            .formatSpecifier(".2f"), .formatSpecifier("5d"), .formatSpecifier("hhd"),
        ])
    }

    @Test func stringsAndEscapes() throws {
        #expect(try kinds(#"'a' "b" 'x"y' "x'y" '\a\b\f\n\r\t\v\\\'\"\?' '\x7e\X41' '\u00E9\U00e9' '\101\7\0' """#) == [
            .string("a"), .string("b"), .string("x\"y"), .string("x'y"), .string("\u{7}\u{8}\u{C}\n\r\t\u{B}\\'\"?"),
            .string("~A"), .string("éé"), .string("A\u{7}\u{0}"), .string(""),
        ])
    }
}
