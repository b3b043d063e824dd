import Testing
import StratusTerminal
@testable import StratusDashboard

@Suite struct TooSmallTests {
    private func render(width: Int, height: Int) -> [String] {
        var canvas = Canvas(width: width, height: height)
        DashboardView.render(Fixtures.state(size: Size(width: width, height: height)), into: &canvas)
        return canvas.lines()
    }

    @Test func aTinyWindowSaysHowBigItMustBeWrappedToFit() {
        let lines = render(width: 12, height: 6)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 12 })
        let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.hasPrefix("Stratus needs 20x8; window is 12x6."))
        #expect(text.hasSuffix("Enlarge it or press q."))
    }

    @Test func theMinimumSizeDrawsTheWholeFrame() {
        let lines = render(width: DashboardView.minimumSize.width, height: DashboardView.minimumSize.height)
        #expect(!lines.joined().contains("Stratus needs"))
        #expect(lines[1].contains("1 Query"))
    }

    @Test func oneColumnDoesNotCrash() {
        #expect(render(width: 1, height: 1).count == 1)
        #expect(render(width: 0, height: 0).isEmpty)
    }
}
