import Foundation
import Testing
import StratusEngine
import StratusCloud
import StratusModel
import StratusTerminal
@testable import StratusDashboard

/// `H`: a field's values over the Query tab's whole result, binned or by frequency.
@Suite struct HistogramTests {
    @Test func numbersDatesAndTextAreBinnedOrCounted() {
        let nights = ValueHistogram(field: "nights", values: [1, 2, 2, 3, 3, 3].map { FieldValue.int64($0) } + [nil], sampled: false)
        #expect(nights.bars == [.init(label: "1", count: 1), .init(label: "2", count: 2), .init(label: "3", count: 3)])
        #expect(nights.missing == 1 && nights.records == 7)
        let budgets = ValueHistogram(field: "budget", values: (0..<100).map { FieldValue.double(Double($0)) }, sampled: true)
        #expect(budgets.bars.count == 10 && budgets.bars.allSatisfy { $0.count == 10 })
        #expect(budgets.bars.first?.label == "0 – 9.9")
        let titles = ValueHistogram(field: "title", values: ["東京", "東京", "Paris 🥐", ""].map { FieldValue.string($0) }, sampled: false)
        #expect(titles.bars == [.init(label: "東京", count: 2), .init(label: "(empty)", count: 1), .init(label: "Paris 🥐", count: 1)])
        let many = ValueHistogram(field: "name", values: (0..<30).map { FieldValue.string("v\($0)") }, sampled: false)
        #expect(many.bars.count == 13 && many.bars.last == .init(label: "(18 other values)", count: 18))
        let tags = ValueHistogram(field: "tags", values: [.list(.string, [.string("a"), .string("b")]), .list(.string, [.string("a")])], sampled: false)
        #expect(tags.bars.first == .init(label: "a", count: 2))
    }

    @Test func theKeyChartsAFieldOverTheWholeResult() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.state.query.pageSize = 10
        harness.press(.char("r"))
        harness.press(.char("H"))
        guard case .picker(let fields)? = harness.state.topModal else {
            Issue.record("no field picker: \(harness.state.status?.text ?? "")")
            return
        }
        let index = try #require(fields.items.firstIndex { $0.label == "nights" })
        for _ in 0..<index { harness.press(.down) }
        harness.press(.enter)
        guard case .histogram(let histogram)? = harness.state.topModal else {
            Issue.record("no histogram: \(harness.state.status?.text ?? "")")
            return
        }
        let total = try harness.matchingCount()
        #expect(histogram.records == total, "the whole result, not the loaded page")
        #expect(histogram.bars.map(\.count).reduce(0, +) + histogram.missing == total)
        let screen = harness.screen()
        #expect(screen.contains("nights over \(total) records"))
        #expect(screen.contains("█"))
        harness.press(.escape)
        #expect(harness.state.modals.isEmpty)
    }
}
