import Foundation
import Testing
import StratusEngine
import StratusModel
@testable import StratusDashboard
import StratusTestSupport

/// The preferences file: a bookmark is written where the dashboard says, and a file that cannot
/// be written is said so in the status line (the bookmark is not silently lost on exit).
@Suite struct PreferencesFileTests {
    @Test func aBookmarkIsWrittenToThePreferencesFile() throws {
        let folder = try TemporaryDirectory("stratus-preferences")
        let path = folder.path("store.sqlite.dashboard.json")
        let harness = try Harness(preferencesPath: path)
        harness.press(.char("3"), .char("r"))
        harness.press(.char("m"))
        #expect(harness.state.status?.kind == .success)
        let kept = PreferencesFile.load(from: path)
        #expect(kept.bookmarks.map(\.label) == harness.state.preferences.bookmarks.map(\.label))
        #expect(kept.bookmarks.first?.label.hasPrefix("Travel #1") == true)
    }

    @Test func aFileThatCannotBeWrittenIsSaidInTheStatusLine() throws {
        let path = "/nonexistent-stratus-folder/store.sqlite.dashboard.json"
        let harness = try Harness(preferencesPath: path)
        harness.press(.char("3"), .char("r"))
        harness.press(.char("m"))
        let status = try #require(harness.state.status)
        #expect(status.kind == .error)
        #expect(status.text.contains(path), "names the file: \(status.text)")
        #expect(status.text.contains("its folder does not exist"), "says why: \(status.text)")
        #expect(!harness.state.preferences.bookmarks.isEmpty, "kept while the dashboard runs")
    }
}
