import Foundation
import Testing
import StratusEngine
import StratusModel
import StratusTerminal
@testable import StratusDashboard

/// The mouse: tabs, hints and rows by click, the wheel by three rows; the keys stay the way.
@Suite struct MouseTests {
    private func click(_ harness: Harness, x: Int, y: Int) {
        harness.send(.mouse(MouseEvent(.press, x: x, y: y)))
    }

    @Test func tabsHintsRowsAndTheWheel() throws {
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
            let harness = try Harness(records: Fixtures.trips(200), size: size)
            let schemaTab = try #require(DashboardView.tabLayout(harness.state, width: size.width).first { $0.tab == .schema })
            click(harness, x: schemaTab.x.upperBound - 1, y: 1)
            #expect(harness.state.tab == .schema)
            let queryTab = try #require(DashboardView.tabLayout(harness.state, width: size.width).first { $0.tab == .query })
            click(harness, x: queryTab.x.lowerBound, y: 1)
            #expect(harness.state.tab == .query)

            // The wheel moves three rows at a time.
            harness.send(.mouse(MouseEvent(.wheelDown, x: 10, y: 10)))
            #expect(harness.state.query.list.selected == 3)
            harness.send(.mouse(MouseEvent(.wheelUp, x: 10, y: 10)))
            #expect(harness.state.query.list.selected == 0)

            // A row: the first click selects it, the second opens it.
            let firstRowY = Layout.body(size).y + 3
            click(harness, x: 5, y: firstRowY + 4)
            #expect(harness.state.query.list.selected == 4)
            #expect(harness.state.modals.isEmpty)
            click(harness, x: 5, y: firstRowY + 4)
            guard case .inspector(let inspector)? = harness.state.topModal else {
                Issue.record("the second click did not open the record")
                return
            }
            #expect(inspector.record.recordName == "trip-4")
            harness.press(.escape)

            // A hint presses its key.
            let filter = try #require(DashboardView.hintLayout(harness.state, width: size.width).first { $0.binding.action == .filter })
            click(harness, x: filter.x.lowerBound, y: size.height - 2)
            guard case .filterEditor? = harness.state.topModal else {
                Issue.record("the hint did not open the filter editor")
                return
            }
            harness.press(.escape)
            // Clicks on nothing do nothing.
            click(harness, x: size.width - 1, y: Layout.body(size).y)
            #expect(harness.state.modals.isEmpty && harness.state.tab == .query)
        }
    }
}
