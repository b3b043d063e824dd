import Testing
import StratusTerminal
@testable import StratusDashboard

/// The filter editor leaves nothing unreadable: on a small screen its text and the check's
/// word show; a long Web Services form of the query wraps rather than being cut.
@Suite struct SmallFilterEditorTests {
    @Test func theFilterEditorShowsItsTextAt40x10() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 40, height: 10))
        harness.press(.char("f"), .tab)
        harness.type("nights > 2")
        #expect(harness.screen().contains("> nights > 2"), "\n\(harness.screen())")
        #expect(harness.screen().contains("✓ valid"))
        harness.type(#" AND nights == "x""#)
        let screen = harness.screen()
        #expect(screen.contains("✗ Field"), "\n\(screen)")
        // Every tab's number stays on the bar.
        #expect(screen.split(separator: "\n")[1].contains("9"))
    }

    @Test func theWebServicesFormWrapsInFull() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 80, height: 24))
        harness.press(.char("f"), .tab)
        harness.type(#"title BEGINSWITH "Kyoto" AND nights > 2 AND nights < 9"#)
        guard case .filterEditor(let editor)? = harness.state.topModal, let web = editor.check?.ckws else {
            Issue.record("no CKWS form")
            return
        }
        #expect(DisplayWidth.of("CKWS: " + web) > 70, "long enough to need more than one line")
        let screen = harness.screen()
        #expect(screen.contains(String(web.suffix(12))), "\n\(screen)")
        #expect(!screen.contains("Ctrl-Y copies"))
    }
}
