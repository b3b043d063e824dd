import Testing
import StratusTerminal
@testable import StratusDashboard

/// The tab bar names every tab at 80 columns, and as much as fits on narrower screens.
@Suite struct TabBarTests {
    private func tabBar(_ harness: Harness, width: Int, height: Int) -> String {
        String(harness.screen(width: width, height: height).split(separator: "\n", omittingEmptySubsequences: false)[1])
    }

    @Test func everyTabIsNamedAt80Columns() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 80, height: 24))
        let bar = tabBar(harness, width: 80, height: 24)
        for tab in DashboardTab.allCases { #expect(bar.contains("\(tab.rawValue) \(tab.shortTitle)"), "\(bar)") }
        // The mouse finds each tab where it is drawn.
        for item in DashboardView.tabLayout(harness.state, width: 80) {
            #expect(item.x.upperBound <= 80)
        }
    }

    @Test func narrowerScreensKeepTheCurrentTabWholeAndTheOthersAbbreviated() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 60, height: 20))
        harness.press(.char("3"))
        let bar = tabBar(harness, width: 60, height: 20)
        #expect(bar.contains("3 Changes"), "\(bar)")
        #expect(bar.contains("1 Que"), "\(bar)")
        #expect(bar.contains("9 Fau"), "\(bar)")
    }
}
