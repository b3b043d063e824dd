import Testing
@testable import StratusPredicates

@Suite struct RenderingTests {
    @Test func caretUnderTheRange() {
        let source = "name CONTAINS 'bob'"
        let d = PredicateDiagnostic(.substringContains, "no substrings", range: SourceRange(offset: 5, length: 8))
        #expect(d.rendered(source: source) == "name CONTAINS 'bob'\n     ^~~~~~~~\nno substrings")
    }

    @Test func zeroLengthRangeAtTheEnd() {
        let error = syntaxError("name == ")!
        #expect(error.diagnostic.rendered(source: "name == ") == "name == \n        ^\nexpected an expression, found end of input")
    }

    @Test func wideCharactersTakeTwoColumns() {
        let source = "名前 == 1 OR 😀 == 2"
        let d = PredicateDiagnostic(.orOperator, "no OR", range: rangeOf("OR", in: source))
        // 名前 is four columns, so OR starts at column 10.
        #expect(d.rendered(source: source) == source + "\n" + String(repeating: " ", count: 10) + "^~\nno OR")
        let emoji = PredicateDiagnostic(.twoConstants, "x", range: rangeOf("😀", in: source))
        #expect(emoji.rendered(source: source).split(separator: "\n")[1] == String(repeating: " ", count: 13) + "^~")
    }

    @Test func combiningMarksTakeNoColumn() {
        let source = "cafe\u{301} == x"
        let d = PredicateDiagnostic(.twoFields, "m", range: rangeOf("x", in: source))
        #expect(d.rendered(source: source).split(separator: "\n")[1] == "        ^")
    }

    @Test func multiLineSourceShowsTheLineOfTheRange() {
        let source = "a == 1\nAND b ENDSWITH 'x'"
        let d = PredicateDiagnostic(.unsupportedOperator, "no ENDSWITH", range: rangeOf("ENDSWITH", in: source))
        #expect(d.rendered(source: source) == "AND b ENDSWITH 'x'\n      ^~~~~~~~\nno ENDSWITH")
    }

    @Test func controlCharactersShowAsSpaces() {
        let source = "a ==\t\u{0}"
        let d = PredicateDiagnostic(.syntax, "bad", range: SourceRange(offset: 5, length: 1))
        #expect(d.rendered(source: source) == "a ==  \n     ^\nbad")
    }

    @Test func noRangeIsJustTheMessage() {
        #expect(PredicateDiagnostic(.usersType, "no Users", range: nil).rendered(source: "TRUEPREDICATE") == "no Users")
    }

    @Test func diagnosticsRenderTogether() {
        if case .failure(let problems) = compile("a ENDSWITH 'x' OR b == 1") {
            #expect(problems.diagnostics.map(\.code) == [.unsupportedOperator, .orOperator])
            #expect(problems.rendered().contains("\n\n"))
        } else {
            Issue.record("compiled")
        }
    }
}
