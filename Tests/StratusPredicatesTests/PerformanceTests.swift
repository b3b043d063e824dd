import Foundation
import Testing
@testable import StratusPredicates

/// The filter editor re-analyses on every keystroke; typical input must stay far below a
/// frame even in a debug build.
@Suite struct PerformanceTests {
    @Test func typicalInputIsFast() {
        let schema = itemSchema()
        let format = "name BEGINSWITH %@ AND age BETWEEN {18, 65} AND ANY favoriteColors IN {'red', 'green'} AND creationDate > now()"
        let start = Date()
        let rounds = 2_000
        for _ in 0..<rounds {
            _ = PredicateCompiler.analyze(format: format, arguments: [.string("Bo")], recordType: "Item", schema: schema, now: fixedNow)
        }
        let perCall = Date().timeIntervalSince(start) / Double(rounds)
        #expect(perCall < 0.002, "\(perCall * 1e6) µs per analysis")
        print("analysis: \(Int(perCall * 1e6)) µs per call")
    }
}
