import Testing
@testable import StratusPredicates

/// The deepest input the parser accepts goes through every recursive pass without trouble.
@Suite struct DepthTests {
    let depth = PredicateParser.maximumDepth - 1

    @Test func deepestAcceptedInputsWorkEverywhere() throws {
        let inputs = [
            String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth),
            String(repeating: "NOT ", count: depth) + "a == 1",
            "a == " + String(repeating: "(", count: depth - 1) + "1" + String(repeating: ")", count: depth - 1),
            "a == " + String(repeating: "-", count: depth - 1) + "b",
            "a IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth),
            "a == " + Array(repeating: "2", count: depth - 1).joined(separator: " ** "),
            String(repeating: "SUBQUERY(a, $x, ", count: depth / 2) + "a == 1" + String(repeating: ") == 1", count: depth / 2),
        ]
        for input in inputs {
            let tree = try PredicateParser.parse(input)
            let printed = tree.canonicalFormat
            #expect(try PredicateParser.parse(printed).withoutRanges == tree.withoutRanges)
            let analysis = PredicateCompiler.analyze(format: input, recordType: "Item", schema: itemSchema(), now: fixedNow)
            #expect(analysis.tree != nil)
            _ = tree.hashValue
        }
    }
}
