import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

@Suite struct ParserTests {
    @Test func simpleComparisonAndRanges() throws {
        let source = "name == 'red'"
        let node = try parse(source)
        #expect(node.range == SourceRange(offset: 0, length: 13))
        guard case .comparison(let c) = node.kind else { Issue.record("not a comparison"); return }
        #expect(c.lhs.kind == .key("name"))
        #expect(c.lhs.range == SourceRange(offset: 0, length: 4))
        #expect(c.op == .equal)
        #expect(c.operatorRange == SourceRange(offset: 5, length: 2))
        #expect(c.rhs.kind == .literal(.string("red")))
        #expect(c.rhs.range == SourceRange(offset: 8, length: 5))
    }

    @Test(arguments: [
        ("=", PredicateOperator.equal), ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less),
        ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
        ("IN", .in), ("in", .in), ("CONTAINS", .contains), ("contains", .contains), ("BEGINSWITH", .beginsWith),
        ("beginswith", .beginsWith), ("ENDSWITH", .endsWith), ("LIKE", .like), ("like", .like),
        ("MATCHES", .matches), ("UTI-CONFORMS-TO", .utiConformsTo), ("uti-equals", .utiEquals),
        ("BETWEEN", .between),
    ])
    func everyOperatorSpelling(spelling: String, op: PredicateOperator) throws {
        let c = try comparison("a \(spelling) b")
        #expect(c.op == op)
        #expect(c.operatorRange == SourceRange(offset: 2, length: spelling.count))
        // Tokens may touch when the operator is a symbol.
        if !spelling.first!.isLetter {
            #expect(try comparison("a\(spelling)b").op == op)
        }
    }

    @Test(arguments: [
        ("42", Literal.integer(42)), ("0", .integer(0)), ("3.25", .double(3.25)), ("1e3", .double(1000)),
        ("2.5E-2", .double(0.025)), ("9.2e+5", .double(920_000)), ("0x1F", .integer(31)), ("0XfF", .integer(255)),
        ("0o17", .integer(15)), ("0b101", .integer(5)), (".5", .double(0.5)), ("1.", .double(1)),
        ("-7", .integer(-7)), ("-2.5", .double(-2.5)), ("-9223372036854775808", .integer(Int64.min)),
        ("9223372036854775807", .integer(Int64.max)), ("18446744073709551616", .double(18446744073709551616)),
    ])
    func numberForms(text: String, value: Literal) throws {
        #expect(try comparison("a == \(text)").rhs.kind == .literal(value))
    }

    @Test func literalsAndKeywords() throws {
        #expect(try comparison("a == TRUE").rhs.kind == .literal(.boolean(true)))
        #expect(try comparison("a == yes").rhs.kind == .literal(.boolean(true)))
        #expect(try comparison("a == False").rhs.kind == .literal(.boolean(false)))
        #expect(try comparison("a == NO").rhs.kind == .literal(.boolean(false)))
        #expect(try comparison("a == NULL").rhs.kind == .literal(.null))
        #expect(try comparison("a == nil").rhs.kind == .literal(.null))
        #expect(try comparison("SELF == 1").lhs.kind == .evaluatedObject)
        #expect(try comparison("self contains 'x'").lhs.kind == .evaluatedObject)
        #expect(try comparison("#size == 1").lhs.kind == .key("size"))
        #expect(try comparison("a == {}").rhs.kind == .aggregate([]))
        #expect(try comparison("a IN {1, 'b', 2.5}").rhs.withoutRanges
            == ExpressionNode(.aggregate([lit(.integer(1)), lit(.string("b")), lit(.double(2.5))])))
        #expect(try comparison("a == $var").rhs.kind == .variable("var"))
        #expect(try comparison("ANYKEY == 1").lhs.kind == .anyKey)
    }

    @Test func stringEscapes() throws {
        #expect(try comparison(#"a == "x\ny\t\\\"'""#).rhs.kind == .literal(.string("x\ny\t\\\"'")))
        #expect(try comparison(#"a == 'it\'s'"#).rhs.kind == .literal(.string("it's")))
        #expect(try comparison(#"a == "a'b'c""#).rhs.kind == .literal(.string("a'b'c")))
        #expect(try comparison(#"a == '\x41\u00e9\101\0'"#).rhs.kind == .literal(.string("Aé" + "A\u{0}")))
        #expect(try comparison(#"a == '\uD83D\uDE00'"#).rhs.kind == .literal(.string("😀")))
        #expect(try comparison("a == '%@ and %K'").rhs.kind == .literal(.string("%@ and %K")))
    }

    @Test func formatSpecifiers() throws {
        for spec in ["@", "K", "d", "i", "ld", "lld", "qd", "u", "lu", "f", "lf", "g", "e", "s", "x", "hi", ".2f"] {
            let source = spec == "K" ? "%K == 1" : "a == %\(spec)"
            let c = try comparison(source)
            let node = spec == "K" ? c.lhs : c.rhs
            #expect(node.kind == .formatArgument(spec), "%\(spec)")
        }
    }

    @Test func keyPathsAndCollectionOperators() throws {
        #expect(try comparison("a.b.c == 1").lhs.withoutRanges
            == ExpressionNode(.member(ExpressionNode(.member(key("a"), "b")), "c")))
        #expect(try comparison("items.@count > 1").lhs.withoutRanges == ExpressionNode(.member(key("items"), "@count")))
        #expect(try comparison("@sum.items.price > 1").lhs.withoutRanges
            == ExpressionNode(.member(ExpressionNode(.member(key("@sum"), "items")), "price")))
        #expect(try comparison("SELF.name == 1").lhs.withoutRanges == ExpressionNode(.member(ExpressionNode(.evaluatedObject), "name")))
    }

    @Test func indexExpressions() throws {
        #expect(try comparison("a[0] == 1").lhs.withoutRanges == ExpressionNode(.index(key("a"), .expression(lit(.integer(0))))))
        #expect(try comparison("a[FIRST] == 1").lhs.withoutRanges == ExpressionNode(.index(key("a"), .first)))
        #expect(try comparison("a[last] == 1").lhs.withoutRanges == ExpressionNode(.index(key("a"), .last)))
        #expect(try comparison("a[SIZE] == 1").lhs.withoutRanges == ExpressionNode(.index(key("a"), .size)))
        #expect(try comparison("$a[$b] == 1").lhs.withoutRanges
            == ExpressionNode(.index(ExpressionNode(.variable("a")), .expression(ExpressionNode(.variable("b"))))))
    }

    @Test func functions() throws {
        #expect(try comparison("d > now()").rhs.kind == .function("now", []))
        let distance = try comparison("distanceToLocation:fromLocation:(location, %@) < 10")
        #expect(distance.lhs.withoutRanges == ExpressionNode(.function(
            "distanceToLocation:fromLocation:", [key("location"), ExpressionNode(.formatArgument("@"))])))
        #expect(try comparison("ANY tokenize:using:('a b', 'cdl') IN allTokens").lhs.withoutRanges
            == ExpressionNode(.function("tokenize:using:", [lit(.string("a b")), lit(.string("cdl"))])))
        #expect(try comparison("FUNCTION(SELF, 'foo:', 1) == 2").lhs.withoutRanges
            == ExpressionNode(.function("FUNCTION", [ExpressionNode(.evaluatedObject), lit(.string("foo:")), lit(.integer(1))])))
        #expect(try comparison("CAST(490594046.5, 'NSDate') < d").lhs.withoutRanges
            == ExpressionNode(.cast(lit(.double(490594046.5)), lit(.string("NSDate")))))
        #expect(try comparison("sum(1, 2) == 3").lhs.withoutRanges == ExpressionNode(.function("sum", [lit(.integer(1)), lit(.integer(2))])))
        let sub = try comparison("SUBQUERY(items, $x, $x.price > 5).@count > 0")
        guard case .member(let base, "@count") = sub.lhs.kind, case .subquery(let coll, "x", let pred) = base.kind else {
            Issue.record("not a subquery")
            return
        }
        #expect(coll.kind == .key("items"))
        #expect(pred.withoutRanges == cmp(ExpressionNode(.member(ExpressionNode(.variable("x")), "price")), .greater, lit(.integer(5))))
    }

    @Test func arithmeticAndBitwisePrecedence() throws {
        func e(_ s: String) throws -> String { PredicatePrinter.format(try comparison("\(s) == 0").lhs) }
        #expect(try comparison("1 + 2 * 3 == 7").lhs.withoutRanges == ExpressionNode(.binary(
            .add, lit(.integer(1)), ExpressionNode(.binary(.multiply, lit(.integer(2)), lit(.integer(3)))))))
        #expect(try comparison("2 ** 3 ** 2 == 1").lhs.withoutRanges == ExpressionNode(.binary(
            .power, lit(.integer(2)), ExpressionNode(.binary(.power, lit(.integer(3)), lit(.integer(2)))))))
        #expect(try comparison("a - b - c == 1").lhs.withoutRanges == ExpressionNode(.binary(
            .subtract, ExpressionNode(.binary(.subtract, key("a"), key("b"))), key("c"))))
        #expect(try comparison("1 << 3 == 8").lhs.withoutRanges == ExpressionNode(.binary(.shiftLeft, lit(.integer(1)), lit(.integer(3)))))
        #expect(try e("1 | 2 ^ 3 & 4 << 5 + 6 * 7 ** 8") == "1 | 2 ^ 3 & 4 << 5 + 6 * 7 ** 8")
        #expect(try e("(1 | 2) & 3") == "(1 | 2) & 3")
        #expect(try comparison("~(1) == 0").lhs.withoutRanges == ExpressionNode(.unary(.bitwiseNot, lit(.integer(1)))))
        #expect(try comparison("-a == 1").lhs.withoutRanges == ExpressionNode(.unary(.negate, key("a"))))
        #expect(try comparison("(a + b) * 2 > 3").lhs.withoutRanges == ExpressionNode(.binary(
            .multiply, ExpressionNode(.binary(.add, key("a"), key("b"))), lit(.integer(2)))))
        #expect(try comparison("$x := 5 == 5").lhs.withoutRanges == ExpressionNode(.assignment("x", lit(.integer(5)))))
    }

    @Test func modifiersAndOptions() throws {
        #expect(try comparison("ANY a = 1").modifier == .any)
        #expect(try comparison("some a = 1").modifier == .any)
        #expect(try comparison("ALL a = 1").modifier == .all)
        #expect(try comparison("NONE a = 1").modifier == .none)
        let c = try comparison("name ==[cd] 'x'")
        #expect(c.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(c.optionsRange == SourceRange(offset: 7, length: 4))
        #expect(try comparison("name LIKE[c] 'x'").options == [.caseInsensitive])
        #expect(try comparison("name CONTAINS[d] 'x'").options == [.diacriticInsensitive])
        #expect(try comparison("name BEGINSWITH[n] 'x'").options == [.normalized])
        #expect(try comparison("name MATCHES[l] 'x'").options == [.localeSensitive])
        #expect(try comparison("name ==[DC] 'x'").options == [.caseInsensitive, .diacriticInsensitive])
        let between = try comparison("a BETWEEN {1, 5}")
        #expect(between.op == .between)
        #expect(between.rhs.withoutRanges == ExpressionNode(.aggregate([lit(.integer(1)), lit(.integer(5))])))
        #expect(try comparison("ANY {'red', 'green'} = favoriteColor").lhs.withoutRanges
            == ExpressionNode(.aggregate([lit(.string("red")), lit(.string("green"))])))
    }

    @Test func precedenceNotAndOr() throws {
        let a = cmp(key("a"), .equal, lit(.integer(1)))
        let b = cmp(key("b"), .equal, lit(.integer(2)))
        let c = cmp(key("c"), .equal, lit(.integer(3)))
        func p(_ s: String) throws -> PredicateNode { try parse(s).withoutRanges }
        #expect(try p("a == 1 AND b == 2 OR c == 3") == PredicateNode(.or([PredicateNode(.and([a, b]), range: .none), c]), range: .none))
        #expect(try p("a == 1 OR b == 2 AND c == 3") == PredicateNode(.or([a, PredicateNode(.and([b, c]), range: .none)]), range: .none))
        #expect(try p("NOT a == 1 AND b == 2") == PredicateNode(.and([PredicateNode(.not(a), range: .none), b]), range: .none))
        #expect(try p("NOT (a == 1 AND b == 2)") == PredicateNode(.not(PredicateNode(.and([a, b]), range: .none)), range: .none))
        #expect(try p("!a == 1 && b == 2 || c == 3") == PredicateNode(.or([
            PredicateNode(.and([PredicateNode(.not(a), range: .none), b]), range: .none), c]), range: .none))
        #expect(try p("a == 1 AND (b == 2 OR c == 3)") == PredicateNode(.and([a, PredicateNode(.or([b, c]), range: .none)]), range: .none))
        #expect(try p("((a == 1))") == a)
        #expect(try p("NOT(a == 1)") == PredicateNode(.not(a), range: .none))
        #expect(try p("TRUEPREDICATE") == PredicateNode(.truePredicate, range: .none))
        #expect(try p("falsepredicate") == PredicateNode(.falsePredicate, range: .none))
    }

    @Test func chainsAreFlattenedButParenthesesNest() throws {
        let flat = try parse("a == 1 AND b == 2 AND c == 3 && d == 4")
        guard case .and(let items) = flat.kind else { Issue.record("not AND"); return }
        #expect(items.count == 4)
        #expect(flat.keywordRanges.count == 3)
        #expect(flat.keywordRanges[2] == rangeOf("&&", in: "a == 1 AND b == 2 AND c == 3 && d == 4"))
        let nested = try parse("(a == 1 AND b == 2) AND c == 3")
        guard case .and(let outer) = nested.kind, case .and(let inner) = outer[0].kind else { Issue.record("not nested"); return }
        #expect(outer.count == 2 && inner.count == 2)
        let ors = try parse("a == 1 OR b == 2 || c == 3 or d == 4")
        guard case .or(let alternatives) = ors.kind else { Issue.record("not OR"); return }
        #expect(alternatives.count == 4)
    }

    @Test func tightSpacing() throws {
        #expect(try parse("counter==1||counter==2").withoutRanges == parse("counter == 1 OR counter == 2").withoutRanges)
        #expect(try parse("counter==1 AND(name=='a')").withoutRanges == parse("counter == 1 AND name == 'a'").withoutRanges)
        #expect(try parse("name==%@").withoutRanges == parse("name == %@").withoutRanges)
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try parse("a == 1 and not b == 2 Or c beginsWith 'x'").withoutRanges
            == parse("a == 1 AND NOT b == 2 OR c BEGINSWITH 'x'").withoutRanges)
        #expect(try parse("TruePredicate").kind == .truePredicate)
    }

    @Test func parenthesisedExpressionsOnTheLeft() throws {
        #expect(try parse("(a) == 1").withoutRanges == cmp(key("a"), .equal, lit(.integer(1))))
        #expect(try parse("(a + 1) * 2 == 4").withoutRanges == cmp(
            ExpressionNode(.binary(.multiply, ExpressionNode(.binary(.add, key("a"), lit(.integer(1)))), lit(.integer(2)))),
            .equal, lit(.integer(4))))
        #expect(try parse("((a)).b == 1").withoutRanges == cmp(ExpressionNode(.member(key("a"), "b")), .equal, lit(.integer(1))))
    }

    // MARK: - Errors

    @Test(arguments: [
        ("name == ", "expected an expression, found end of input", 8, 0),
        ("", "expected a predicate, found end of input", 0, 0),
        ("name", "expected a comparison operator, found end of input (a value alone is not a predicate)", 4, 0),
        ("1", "expected a comparison operator, found end of input (a value alone is not a predicate)", 1, 0),
        ("TRUE", "expected a comparison operator, found end of input (TRUE is a value, not a predicate; TRUEPREDICATE is the predicate)", 4, 0),
        ("0 || 1", "expected a comparison operator, found '||'", 2, 2),
        ("a == 1 AND", "expected a predicate, found end of input", 10, 0),
        ("a == 1 b == 2", "expected AND, OR or end of input, found 'b'", 7, 1),
        ("(a == 1", "expected ')' to close the '(' at offset 0, found end of input", 7, 0),
        ("a == 'abc", "unterminated string: expected a closing '", 5, 4),
        ("a == 12abc", "invalid number: unexpected 'a' (U+0061) after the digits", 5, 5),
        ("a == 1e", "expected exponent digits after 'e'", 5, 2),
        ("a == 0x", "expected digits after '0x'", 5, 2),
        ("a == %k", "unknown format specifier '%k' (did you mean %K?)", 5, 2),
        ("a == %%", "expected an expression, found '%%' (a literal percent sign belongs inside a quoted string)", 5, 2),
        ("a == ?", "unexpected character '?' (U+003F)", 5, 1),
        ("size == 1", "expected a predicate, found 'size' ('SIZE' is a reserved word; write #size to use it as a key)", 0, 4),
        ("a == size", "expected an expression, found 'size' ('SIZE' is a reserved word; write #size to use it as a key)", 5, 4),
        ("a.in == 1", "expected a key after '.', found 'in' ('IN' is a reserved word; write #in to use it as a key)", 2, 2),
        ("a ==[x] 1", "expected comparison options (letters c, d, n or l, as in [cd]), found 'x'", 5, 1),
        ("ANY a b", "expected a comparison operator, found 'b'", 6, 1),
        ("a == {1, 2", "expected '}' or ',' in the aggregate, found end of input", 10, 0),
        ("a == 0x10000000000000000", "number is too large for 64 bits", 5, 19),
        ("a == 'x\\u12'", "expected 4 hex digits in escape", 7, 4),
        ("a == '\\uD800'", "\\u escape is a lone UTF-16 surrogate", 6, 6),
        ("a == b:c", "expected '(' after the function b:, found 'c'", 7, 1),
        ("(a == 1) == 2", "expected AND, OR or end of input, found '=='", 9, 2),
        ("a == \u{0}", "unexpected character U+0000", 5, 1),
    ])
    func syntaxErrors(source: String, message: String, offset: Int, length: Int) {
        let error = syntaxError(source)
        #expect(error?.message == message, "\(source)")
        #expect(error?.range == SourceRange(offset: offset, length: length), "\(source)")
    }

    @Test func errorRangesCountCodePoints() {
        // The emoji and the CJK characters are one code point each.
        let error = syntaxError("名前 == '😀' AND")
        #expect(error?.range == SourceRange(offset: 13, length: 0))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        #expect(syntaxError(deep)?.message.hasPrefix("nested too deeply") == true)
        let nots = String(repeating: "NOT ", count: 5_000) + "a == 1"
        #expect(syntaxError(nots)?.message.hasPrefix("nested too deeply") == true)
        let minus = "a == " + String(repeating: "-", count: 5_000) + "b"
        #expect(syntaxError(minus)?.message.hasPrefix("nested too deeply") == true)
        let chain = "a == " + Array(repeating: "1", count: 5_000).joined(separator: " + ")
        #expect(syntaxError(chain)?.message.hasPrefix("nested too deeply") == true)
        let powers = "a == " + Array(repeating: "2", count: 5_000).joined(separator: " ** ")
        #expect(syntaxError(powers)?.message.hasPrefix("nested too deeply") == true)
        let members = "a" + String(repeating: ".b", count: 5_000) + " == 1"
        #expect(syntaxError(members)?.message.hasPrefix("nested too deeply") == true)
        let braces = "a IN " + String(repeating: "{", count: 5_000)
        #expect(syntaxError(braces)?.message.hasPrefix("nested too deeply") == true)
        let ok = String(repeating: "(", count: 150) + "a == 1" + String(repeating: ")", count: 150)
        #expect(syntaxError(ok) == nil)
        // Long flat chains are fine: they are one n-ary node.
        let flat = Array(repeating: "a == 1", count: 5_000).joined(separator: " AND ")
        #expect(syntaxError(flat) == nil)
    }
}

