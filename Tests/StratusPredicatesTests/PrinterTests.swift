import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

@Suite struct PrinterTests {
    func canonical(_ source: String) throws -> String { try parse(source).canonicalFormat }

    @Test(arguments: [
        ("name = 'red'", #"name == "red""#),
        ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
        ("a == 1 && b == 2 || c == 3", "(a == 1 AND b == 2) OR c == 3"),
        ("a == 1 or b == 2 and c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("not a == 1", "NOT (a == 1)"), ("!!a == 1", "NOT NOT (a == 1)"),
        ("any a = 1", "ANY a == 1"), ("some a = 1", "ANY a == 1"), ("none a = 1", "NONE a == 1"),
        ("a beginswith[DC] 'x'", #"a BEGINSWITH[cd] "x""#), ("#size == YES", "#size == TRUE"),
        (#"a == 'say "hi"'"#, #"a == "say \"hi\"""#), ("a == 0x10", "a == 16"), ("a == 1.50", "a == 1.5"),
        ("a == 1.", "a == 1.0"), ("truepredicate", "TRUEPREDICATE"), ("a in {1,2}", "a IN {1, 2}"),
        ("(a + b) * c == 1", "(a + b) * c == 1"), ("a == -(5)", "a == -(5)"), ("a == - 5", "a == -5"),
        ("distanceToLocation:fromLocation:(location,%@)<%f", "distanceToLocation:fromLocation:(location, %@) < %f"),
        ("a == 'line\nbreak\u{0}'", #"a == "line\nbreak\u0000""#), ("a==nil", "a == NULL"),
        ("a == 1e999", "a == 1e999"), ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("a utI-eQuals 'x'", #"a UTI-EQUALS "x""#), ("cast(1,'NSDate') == a", #"CAST(1, "NSDate") == a"#),
    ])
    func canonicalStyle(source: String, expected: String) throws {
        #expect(try canonical(source) == expected)
    }

    @Test func corpusRoundTrips() throws {
        var parsed = 0
        for source in corpus where !source.isEmpty {
            let tree = try parse(source)
            let printed = tree.canonicalFormat
            let again = try parse(printed)
            #expect(again.withoutRanges == tree.withoutRanges, "\(source) -> \(printed)")
            #expect(again.canonicalFormat == printed, "printing is idempotent: \(printed)")
            parsed += 1
        }
        #expect(parsed >= 100)
    }

    @Test func generatedTreesRoundTrip() throws {
        var generator = TreeGenerator(seed: 2024)
        for _ in 0..<3_000 {
            let tree = generator.predicate(depth: 4)
            let printed = tree.canonicalFormat
            let reparsed: PredicateNode
            do {
                reparsed = try parse(printed)
            } catch {
                Issue.record("\(printed): \(error)")
                continue
            }
            #expect(reparsed.withoutRanges == tree, "\(printed)")
        }
    }

    @Test func boundValuesPrintAsCasts() throws {
        let tree = try parse("a == %@ AND b == %@ AND c == %@ AND d IN %@ AND e == %@")
        let (bound, problems) = PredicateBinder.bind(tree, arguments: [
            .date(Date(timeIntervalSinceReferenceDate: 100)), .reference("rec-1"),
            .location(latitude: 37.5, longitude: -122.25), .value(.list(.string, [.string("x"), .string("y")])),
            .string("q\"uote"),
        ], sourceLength: 0)
        #expect(problems.isEmpty)
        #expect(bound.canonicalFormat == #"a == CAST(100.0, "NSDate") AND b == CAST("rec-1", "CKReference") AND c == CAST("37.5,-122.25", "CLLocation") AND d IN {"x", "y"} AND e == "q\"uote""#)
    }
}

/// Random trees in the shapes the parser produces (seeded, so failures reproduce).
struct TreeGenerator {
    var rng: SeededGenerator
    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func identifier() -> String {
        pick(["a", "name", "favoriteColors", "x_1", "_y", "size", "first", "in", "UTI", "e5", "café", "名前", "Any", "e", "none"])
    }

    mutating func string() -> String {
        let pieces = ["a", "'", "\"", "\\", "\n", "\t", "\u{0}", "😀", "é", "%@", " ", "名", "\u{7F}", "\u{2028}", "x"]
        return (0..<int(5)).map { _ in pick(pieces) }.joined()
    }

    mutating func literal() -> Literal {
        switch int(6) {
        case 0: return .string(string())
        case 1: return .integer(Int64(bitPattern: rng.next()) >> Int64(int(64)))
        case 2:
            let value = Double(Int64(bitPattern: rng.next()) >> 40) / Double(1 << int(30))
            return .double(pick([value, 1e300, Double.leastNonzeroMagnitude, Double.infinity, -Double.infinity, 0.1]))
        case 3: return .boolean(int(2) == 0)
        case 4: return .null
        default: return .integer(Int64(int(100)))
        }
    }

    mutating func expression(depth: Int) -> ExpressionNode {
        let leafOnly = depth <= 0
        let choice = leafOnly ? int(6) : int(17)
        let kind: ExpressionNode.Kind
        switch choice {
        case 0, 1: kind = .literal(literal())
        case 2: kind = .key(identifier())
        case 3: kind = pick([.evaluatedObject, .anyKey, .variable(identifier()), .key("@count")])
        case 4: kind = .formatArgument(pick(["@", "K", "d", "ld", "lld", "f", ".2f", "s"]))
        case 5: kind = .key(identifier())
        case 6: kind = .aggregate((0..<int(4)).map { _ in expression(depth: depth - 1) })
        case 7:
            let name = pick(["now", "sum", "distanceToLocation:fromLocation:", "tokenize:using:", "FUNCTION", "FETCH", "size"])
            kind = .function(name, (0..<int(3)).map { _ in expression(depth: depth - 1) })
        case 8: kind = .member(expression(depth: depth - 1), pick(["b", "@count", "size", "e5"]))
        case 9:
            let sub: IndexSubscript = pick([.first, .last, .size]) 
            kind = .index(expression(depth: depth - 1), int(2) == 0 ? sub : .expression(expression(depth: depth - 1)))
        case 10: kind = .unary(pick([.negate, .bitwiseNot]), expression(depth: depth - 1))
        case 11, 12:
            kind = .binary(pick(BinaryOperator.allCases), expression(depth: depth - 1), expression(depth: depth - 1))
        case 13: kind = .cast(expression(depth: depth - 1), ExpressionNode(.literal(.string("NSDate"))))
        case 14: kind = .subquery(expression(depth: depth - 1), identifier(), predicate(depth: depth - 1))
        case 15: kind = .assignment(identifier(), expression(depth: depth - 1))
        default: kind = .key(identifier())
        }
        return ExpressionNode(kind)
    }

    mutating func predicate(depth: Int) -> PredicateNode {
        let choice = depth <= 0 ? 3 + int(2) : int(8)
        switch choice {
        case 0, 1:
            let items = (0..<(2 + int(3))).map { _ in predicate(depth: depth - 1) }
            return PredicateNode(int(2) == 0 ? .and(items) : .or(items), range: .none)
        case 2:
            return PredicateNode(.not(predicate(depth: depth - 1)), range: .none)
        case 3:
            return PredicateNode(pick([.truePredicate, .falsePredicate]), range: .none)
        default:
            let modifier: ComparisonModifier = pick([.direct, .direct, .any, .all, .none])
            let options: ComparisonOptions = pick([[], [], [.caseInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized, .localeSensitive]])
            return cmp(expression(depth: depth - 1), pick(PredicateOperator.allCases), expression(depth: depth - 1),
                       modifier: modifier, options: options)
        }
    }
}
