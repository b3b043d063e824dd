import Foundation
import Testing

/// Act As in the real dashboard under tmux: the user picked is shown and kept for the store
/// when the dashboard starts again.
@Suite(.serialized) struct ActAsEndToEndTests {
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable)) func theActingUserIsKeptAcrossRestarts() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["users", "create", "alice"]).status == 0)
        #expect(try cli.run(["zones", "create", "Mine", "--user", "alice"]).status == 0)
        #expect(try cli.run(["save", "--user", "alice", "--zone", "Mine"], stdin: #"{"recordName": "a1", "recordType": "Note", "fields": {"title": {"value": "アリス", "type": "STRING"}}}"#).status == 0)
        let command = "env TERM=tmux-256color \(StratusCLI.binary.path) dashboard --store \(cli.storePath)"
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        pane.run(command + "; echo EXIT=$?")
        try pane.waitFor("Stratus ▸ store.sqlite ▸ private")
        pane.keys("U")
        try pane.waitFor("Act as")
        pane.keys("Down", "Enter")
        try pane.waitFor("store.sqlite ▸ as alice ▸ private")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
        pane.run("clear; " + command + " --zone Mine; echo EXIT=$?")
        try pane.waitFor("store.sqlite ▸ as alice ▸ private ▸ Mine")
        try pane.waitFor("アリス")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }
}
