import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// `S` sorts by more than one field: each pick adds a sort after those in use, and the rows
/// come in that order.
@Suite struct ThenSortTests {
    @Test func aSecondSortOrdersTheTiesOfTheFirst() throws {
        let harness = try Harness(size: Size(width: 120, height: 40))
        try Self.pick("nights ↓", with: .char("s"), harness)
        try Self.pick("budget ↑", with: .char("S"), harness)
        #expect(harness.state.query.sort.map(\.label) == ["nights ↓", "budget ↑"])
        #expect(harness.screen().contains("nights ↓, then budget ↑"))
        let rows = harness.state.query.records
        #expect(rows.count > 10)
        func key(_ record: Record) -> (Int64, Double) {
            guard case .int64(let nights)? = record["nights"], case .double(let budget)? = record["budget"] else { return (0, 0) }
            return (nights, budget)
        }
        let expected = rows.sorted { key($0).0 != key($1).0 ? key($0).0 > key($1).0 : key($0).1 < key($1).1 }
        #expect(rows.map(\.recordName) == expected.map(\.recordName))
        #expect(Set(rows.map { key($0).0 }).count < rows.count, "the first sort has ties for the second to order")
        // The picker offers to drop the last sort, and fields not yet in the sort.
        harness.press(.char("S"))
        guard case .picker(let picker)? = harness.state.topModal else { Issue.record("no picker"); return }
        #expect(picker.items.first?.label == "drop budget ↑")
        #expect(!picker.items.contains { $0.label.hasPrefix("nights ") || $0.label.hasPrefix("budget ") })
        harness.press(.enter)
        #expect(harness.state.query.sort.map(\.label) == ["nights ↓"])
        // s starts over with one sort.
        try Self.pick("budget ↑", with: .char("s"), harness)
        #expect(harness.state.query.sort.map(\.label) == ["budget ↑"])
    }

    @Test func withoutASortItSaysToPickTheFirst() throws {
        let harness = try Harness()
        harness.state.query.sort = []
        harness.press(.char("S"))
        #expect(harness.state.modals.isEmpty)
        #expect(harness.state.status?.text == "Nothing is sorted yet: s picks the first sort, S then adds the next.")
    }

    static func pick(_ label: String, with key: Key, _ harness: Harness) throws {
        harness.press(key)
        guard case .picker(let picker)? = harness.state.topModal else { throw PickError.noPicker(harness.state.status?.text ?? "") }
        let index = try #require(picker.items.firstIndex { $0.label == label }, "\(label) in \(picker.items.map(\.label))")
        let moves = index - picker.list.selected
        for _ in 0..<abs(moves) { harness.press(moves > 0 ? .down : .up) }
        harness.press(.enter)
    }

    enum PickError: Error { case noPicker(String) }
}
