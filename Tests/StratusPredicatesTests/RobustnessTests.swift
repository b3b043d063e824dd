import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

/// Random and mutated input never crashes, hangs or overflows; whatever parses round-trips
/// and goes through the whole compiler.
@Suite struct RobustnessTests {
    static let fragments = [
        "a", "name", " ", "==", "=", "!=", "<>", "<", ">=", "=>", "AND", "&&", "OR", "||", "NOT", "!", "(", ")", "{", "}",
        "[", "]", ",", ".", "'x'", "\"y\"", "'", "\"", "\\", "1", "2.5", "0x1F", "1e", "-", "+", "*", "**", "/", "&", "|",
        "^", "~", "<<", ">>", "%@", "%K", "%d", "%", "$v", ":=", ":", "#", "@count", "@", "ANY", "ALL", "NONE", "SOME",
        "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN", "[cd]", "TRUEPREDICATE",
        "FALSEPREDICATE", "SELF", "self", "NULL", "TRUE", "now()", "distanceToLocation:fromLocation:(", "tokenize:using:(",
        "SUBQUERY(", "CAST(", "FUNCTION(", "FIRST", "SIZE", "UTI-EQUALS", "\u{0}", "😀", "名", "é", "\u{301}", "\n", "\t",
        "\u{FFFF}", "\u{10FFFF}", "allTokens",
    ]

    func exercise(_ source: String) {
        let analysis = PredicateCompiler.analyze(
            format: source, arguments: [.string("x"), .key("name"), .int(3)], recordType: "Item",
            schema: itemSchema(), sorts: [QuerySort("age")], now: fixedNow)
        if let tree = analysis.tree {
            let printed = tree.canonicalFormat
            let again = try? PredicateParser.parse(printed)
            if again?.withoutRanges != tree.withoutRanges {
                Issue.record("round trip: \(source.prefix(200).debugDescription) -> \(printed.prefix(200).debugDescription)")
            }
        } else {
            #expect(analysis.diagnostics.count == 1)
            #expect(analysis.diagnostics.first?.code == .syntax)
        }
        let length = source.unicodeScalars.count
        for diagnostic in analysis.diagnostics {
            if let range = diagnostic.range, range.offset < 0 || range.end > length {
                Issue.record("\(source.prefix(80).debugDescription): range out of bounds in \(diagnostic)")
            }
        }
        for diagnostic in analysis.diagnostics.prefix(2) { _ = diagnostic.rendered(source: source) }
        if let query = analysis.query {
            _ = query.filter.matches(TestRecord(fields: ["name": .string("x"), "age": .int64(3)]))
        }
    }

    @Test func randomFragmentStrings() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<6_000 {
            let count = Int(rng.next() % 12)
            let source = (0..<count).map { _ in Self.fragments[Int(rng.next() % UInt64(Self.fragments.count))] }
                .joined(separator: rng.next() % 3 == 0 ? "" : " ")
            exercise(source)
        }
    }

    @Test func randomScalars() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<3_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 20) {
                let value = rng.next() % 4 == 0 ? UInt32(rng.next() % 0x11_0000) : UInt32(rng.next() % 0x80)
                scalars.append(Unicode.Scalar(value) ?? "?")
            }
            exercise(String(scalars))
        }
    }

    @Test func mutatedCorpus() {
        var rng = SeededGenerator(seed: 42)
        let sources = corpus.filter { !$0.isEmpty }
        for _ in 0..<6_000 {
            var scalars = Array(sources[Int(rng.next() % UInt64(sources.count))].unicodeScalars)
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let position = scalars.isEmpty ? 0 : Int(rng.next() % UInt64(scalars.count))
                switch rng.next() % 4 {
                case 0 where !scalars.isEmpty: scalars.remove(at: position)
                case 1:
                    let fragment = Self.fragments[Int(rng.next() % UInt64(Self.fragments.count))]
                    scalars.insert(contentsOf: fragment.unicodeScalars, at: position)
                case 2 where !scalars.isEmpty:
                    scalars[position] = Unicode.Scalar(UInt8(32 + rng.next() % 95))
                default:
                    let cut = scalars.isEmpty ? 0 : Int(rng.next() % UInt64(scalars.count))
                    scalars = Array(scalars[..<max(position, cut)])
                }
            }
            exercise(String(String.UnicodeScalarView(scalars)))
        }
    }

    @Test func pathologicalInputs() {
        let inputs = [
            String(repeating: "(", count: 100_000), String(repeating: ")", count: 1_000),
            String(repeating: "'", count: 10_001), String(repeating: "a == 1 AND ", count: 2_000) + "a == 1",
            "a IN {" + Array(repeating: "1", count: 20_000).joined(separator: ",") + "}",
            String(repeating: "\u{0}", count: 1_000), String(repeating: "NOT ", count: 100_000),
            "a == " + String(repeating: "9", count: 10_000), "a == '" + String(repeating: "\\", count: 9_999) + "'",
            String(repeating: "SUBQUERY(a, $x, ", count: 1_000), String(repeating: "-", count: 50_000) + "1 == a",
            String(repeating: "a.", count: 50_000) + "b == 1", "a == " + String(repeating: "1 ** ", count: 50_000) + "1",
        ]
        for input in inputs { exercise(input) }
    }
}
