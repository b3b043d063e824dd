import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusTestSupport
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
        pane.keys("A")
        try pane.waitFor("Act as")
        try pane.waitFor("alice")
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

/// The share flow in the real dashboard: the owner invites from the Sharing tab, the
/// participant accepts on the command line and opens the zone from their Sharing tab.
@Suite(.serialized) struct SharingEndToEndTests {
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable)) func inviteInTheDashboardAcceptAndOpenTheSharedZone() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        for alias in ["alice", "bob"] { #expect(try cli.run(["users", "create", alias]).status == 0) }
        #expect(try cli.run(["zones", "create", "Trips", "--user", "alice"]).status == 0)
        for record in [#"{"recordName": "trip-1", "recordType": "Trip", "fields": {"title": {"value": "Lisbon", "type": "STRING"}}}"#,
                       #"{"recordName": "stop-1", "recordType": "Trip", "parent": {"recordName": "trip-1"}, "fields": {"title": {"value": "Belém", "type": "STRING"}}}"#,
                       #"{"recordName": "secret", "recordType": "Trip", "fields": {"title": {"value": "not shared", "type": "STRING"}}}"#] {
            #expect(try cli.run(["save", "--user", "alice", "--zone", "Trips"], stdin: record).status == 0)
        }
        let created = try cli.run(["share", "create", "--record", "trip-1", "--zone", "Trips", "--user", "alice"])
        let url = try #require(created.stdout.split(separator: "\n").first.map(String.init))
        let dashboard = "env TERM=tmux-256color \(StratusCLI.binary.path) dashboard --store \(cli.storePath)"
        let pane = try TmuxPane(width: 120, height: 30)
        defer { pane.close() }
        pane.run(dashboard + " --user alice; echo EXIT=$?")
        try pane.waitFor("as alice ▸ private")
        pane.keys("7")
        try pane.waitFor("Shares you own")
        pane.keys("Down", "a")
        try pane.waitFor("Invite to the share")
        pane.keys("Down", "Enter")
        try pane.waitFor("bob may")
        pane.keys("Enter")
        try pane.waitFor("bob  read-only  invited")
        pane.keys("q")
        try pane.waitFor("EXIT=0")

        #expect(try cli.run(["share", "accept", url, "--user", "bob"]).status == 0)
        pane.run("clear; " + dashboard + " --user bob; echo EXIT=$?")
        try pane.waitFor("as bob ▸ private")
        pane.keys("7")
        try pane.waitFor("from alice")
        pane.keys("Down", "Down", "Enter")
        try pane.waitFor("as bob ▸ shared ▸ Trips")
        try pane.waitFor("Belém")
        #expect(!pane.capture().contains("not shared"), "the unshared record of the zone stays hidden")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }
}

/// Ctrl-Z gives the terminal back to the shell; `fg` brings the dashboard back as it was.
@Suite(.serialized) struct SuspendEndToEndTests {
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable)) func ctrlZSuspendsAndFgResumes() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        pane.run(try DashboardEndToEndTests().dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitFor("Stratus ▸ store.sqlite ▸ private ▸ Travel ▸ Trip")
        try pane.waitForResults()
        pane.keys("C-z")
        try pane.waitFor("Stopped")
        // The shell has its terminal back: cooked mode with echo.
        pane.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
        try pane.waitFor("icanon echo")
        // The first command line has finished (its job stopped); `fg` runs the dashboard on.
        pane.run("fg; echo AFTER=$?")
        try pane.waitFor("Back from the shell.")
        #expect(pane.capture().contains("1 Query"))
        pane.keys("q")
        try pane.waitFor("AFTER=0")
    }
}

/// The Logs tab of a dashboard open on a store that `stratus serve` serves: a record saved over
/// HTTP shows as it arrives.
@Suite(.serialized) struct LogsEndToEndTests {
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable)) func aRecordSavedOverHTTPShowsInTheLogsTab() async throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let apiToken = try cli.run(["auth", "api-token", "--container", "iCloud.logs"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = try cli.run(["auth", "login", "--container", "iCloud.logs"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let pane = try TmuxPane(width: 120, height: 30)
        defer { pane.close() }
        pane.run("env TERM=tmux-256color \(StratusCLI.binary.path) dashboard --store \(cli.storePath); echo EXIT=$?")
        try pane.waitFor("Stratus ▸ store.sqlite")
        pane.keys("8")
        try pane.waitFor("No requests yet")

        let server = try ServedStore(store: cli.storePath)
        defer { server.stop() }
        let port = try #require(server.port)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.logs/development/private/records/modify?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? webToken)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"operations": [{"operationType": "create", "record": {"recordName": "from-http", "recordType": "Note", "fields": {"title": {"value": "東京"}}}}]}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        try pane.waitFor("saved from-http")
        #expect(pane.capture().contains("records/modify"))
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }
}
