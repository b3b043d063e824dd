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
        #expect(nights.bars.map(\.label) == ["1", "2", "3"] && nights.bars.map(\.count) == [1, 2, 3])
        #expect(nights.bars[1].condition == BarCondition(format: "nights == %@", arguments: ["int:2"]))
        #expect(nights.missing == 1 && nights.records == 7)
        let budgets = ValueHistogram(field: "budget", values: (0..<100).map { FieldValue.double(Double($0)) }, sampled: true)
        #expect(budgets.bars.count == 10 && budgets.bars.allSatisfy { $0.count == 10 })
        #expect(budgets.bars.first?.label == "0 – 9.9")
        #expect(budgets.bars.first?.condition == BarCondition(format: "budget >= %@ AND budget < %@", arguments: ["double:0.0", "double:9.9"]))
        #expect(budgets.bars.last?.condition?.format == "budget >= %@ AND budget <= %@", "the last bin holds the largest value")
        let titles = ValueHistogram(field: "title", values: ["東京", "東京", "Paris 🥐", ""].map { FieldValue.string($0) }, sampled: false)
        #expect(titles.bars.map(\.label) == ["東京", "(empty)", "Paris 🥐"] && titles.bars.map(\.count) == [2, 1, 1])
        #expect(titles.bars.map { $0.condition?.arguments ?? [] } == [["string:東京"], ["string:"], ["string:Paris 🥐"]])
        let many = ValueHistogram(field: "name", values: (0..<30).map { FieldValue.string("v\($0)") }, sampled: false)
        #expect(many.bars.count == 13 && many.bars.last == .init(label: "(18 other values)", count: 18, condition: nil))
        let tags = ValueHistogram(field: "tags", values: [.list(.string, [.string("a"), .string("b")]), .list(.string, [.string("a")])], sampled: false)
        #expect(tags.bars.first == .init(label: "a", count: 2, condition: BarCondition(format: "tags CONTAINS %@", arguments: ["string:a"])))
        let listNumbers = ValueHistogram(field: "scores", values: (0..<40).map { .list(.int64, [.int64(Int64($0)), .int64(Int64($0 * 3))]) }, sampled: false)
        #expect(listNumbers.bars.count == 10 && listNumbers.bars.allSatisfy { $0.condition == nil }, "no predicate selects a range of a list's elements")
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

    /// Enter on a bar filters the query to its records: the bar's count is the result's.
    @Test func enterOnABarFiltersTheQueryToItsRecords() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.mapsResults = true
        harness.press(.char("r"))
        for field in ["nights", "budget", "startDate"] {
            let histogram = try Self.chart(field, harness)
            let index = try #require(histogram.bars.indices.dropFirst().first { histogram.bars[$0].count > 0 && histogram.bars[$0].condition != nil })
            for _ in 0..<index { harness.press(.down) }
            guard case .histogram(let moved)? = harness.state.topModal else { Issue.record("the histogram closed"); return }
            #expect(moved.selected == index)
            #expect(harness.screen().contains("Enter filters to the bar"))
            harness.press(.enter)
            #expect(harness.state.modals.isEmpty, "applied: \(harness.state.status?.text ?? "")")
            let condition = try #require(histogram.bars[index].condition)
            #expect(harness.state.query.filter == condition.format)
            #expect(harness.state.query.arguments == condition.arguments)
            #expect(harness.state.query.matchCount == histogram.bars[index].count, "\(field): the bar's count is the result's")
            // Back to the whole result for the next field.
            harness.state.query.filter = ""
            harness.state.query.arguments = []
            harness.press(.char("r"))
        }
    }

    /// A filter in use stays: the bar's condition is added to it.
    @Test func theBarsConditionIsAddedToTheFilterInUse() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.mapsResults = true
        harness.state.query.filter = "nights > %@"
        harness.state.query.arguments = ["int:1"]
        harness.press(.char("r"))
        let histogram = try Self.chart("nights", harness)
        let bar = try #require(histogram.bars.first)
        let condition = try #require(bar.condition)
        #expect(condition.arguments.first == "int:2", "the filter in use leaves no one-night trips")
        harness.press(.enter)
        #expect(harness.state.query.filter == "(nights > %@) AND " + condition.format)
        #expect(harness.state.query.arguments == ["int:1"] + condition.arguments)
        #expect(harness.state.query.matchCount == bar.count)
    }

    /// A bar that stands for several values says so and filters nothing.
    @Test func aBarOfOtherValuesSaysNoFilterSelectsIt() throws {
        let harness = try Harness(size: Size(width: 100, height: 30))
        harness.press(.char("r"))
        var histogram = ValueHistogram(field: "name", values: (0..<30).map { FieldValue.string("v\($0)") }, sampled: false)
        histogram.selected = histogram.bars.count - 1
        harness.state.modals.append(.histogram(histogram))
        let before = harness.state.query.filter
        harness.press(.enter)
        #expect(harness.state.query.filter == before)
        #expect(harness.state.status?.text.hasPrefix("No filter selects this bar's records") == true)
    }

    static func chart(_ field: String, _ harness: Harness) throws -> ValueHistogram {
        harness.press(.char("H"))
        guard case .picker(let fields)? = harness.state.topModal else { throw HistogramTestError.missing("no field picker") }
        let index = try #require(fields.items.firstIndex { $0.label == field })
        for _ in 0..<index { harness.press(.down) }
        harness.press(.enter)
        guard case .histogram(let histogram)? = harness.state.topModal else { throw HistogramTestError.missing("no histogram of \(field)") }
        return histogram
    }

    enum HistogramTestError: Error { case missing(String) }
}
