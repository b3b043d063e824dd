import Foundation
import StratusTestSupport
import Testing

/// The real `stratus dashboard --remote` in a tmux pane against a `stratus serve` the test
/// starts: browse, filter, play back, edit and undo (each then on the server's store), a
/// refusal as another user, writes to production, a lapsed sign-in, and the throttling
/// countdown from a fault armed on the served store.
@Suite(.serialized) struct RemoteDashboardEndToEndTests {
    /// The dashboard on `remote`, with the test's config folder, then the exit status.
    func dashboard(_ served: RemoteModeTests.Served, remote: String, _ extra: String = "") -> String {
        "env XDG_CONFIG_HOME=\(served.config) STRATUS_STORE=/nonexistent/store.sqlite TERM=tmux-256color "
            + "\(StratusCLI.binary.path) dashboard --remote \(remote) \(extra); echo EXIT=$?"
    }

    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable))
    func browseFilterPlayBackEditAndWaitOutThrottling() throws {
        let served = try RemoteModeTests.Served()
        let pane = try TmuxPane(width: 110, height: 30)
        defer { pane.close() }
        pane.run(dashboard(served, remote: "served", "--zone Travel --type Trip"))
        try pane.waitFor("Stratus ▸ remote: served (development) ▸ private ▸ Travel ▸ Trip")
        try pane.waitForResults()
        #expect(pane.capture().contains("trip-"))
        #expect(pane.capture().contains("nights"), "columns learned from the records")

        // A filter checked as it is typed, then sent.
        pane.keys("f")
        try pane.waitFor("Filter · Trip")
        pane.keys("Tab")
        // The types learned from the records read stand in for the schema CKWS cannot give.
        pane.type("nights > 'x'")
        try pane.waitFor("Field 'nights' is INT64, but the value is a string")
        pane.keys("C-u")
        pane.type("nights > 10")
        try pane.waitFor("✓ valid")
        pane.keys("Enter")
        try pane.waitFor("Filter nights > 10")
        try pane.waitForResults()
        let expected = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--filter", "nights > %d", "--arg", "int:10", "--all"])
        let names = (expected["records"] as? [[String: Any]] ?? []).compactMap { $0["recordName"] as? String }
        #expect(!names.isEmpty)
        try pane.waitFor("1/\(names.count) match")

        // An edit: the first row's budget, saved to the server.
        pane.keys("Enter")
        try pane.waitFor("recordChangeTag")
        pane.keys("e")
        try pane.waitFor("Ctrl-S saves")
        pane.keys("C-u")
        pane.type("4242.5")
        pane.keys("C-s")
        try pane.waitFor("Saved Trip")
        let saved = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--filter", "budget == %@", "--arg", "double:4242.5"])
        #expect((saved["records"] as? [[String: Any]])?.count == 1, "the edit is on the server's store")
        pane.keys("Escape")
        try pane.waitFor("recordChangeTag", present: false)
        // Undo puts the server's record back.
        pane.keys("U")
        try pane.waitFor("Undid the save of")
        let undone = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--filter", "budget == %@", "--arg", "double:4242.5"])
        #expect((undone["records"] as? [[String: Any]])?.isEmpty == true, "the undo is on the server's store")

        // Changes playback; its bookmark is kept in the remote's own preferences file.
        pane.keys("3")
        try pane.waitFor("Since the beginning")
        pane.keys("r")
        try pane.waitFor("Done: ")
        pane.keys("m")
        try pane.waitFor("Bookmarked the token")
        // The file is written by the effect that follows the frame, so it may land just after.
        let preferencesPath = served.config + "/stratus/dashboard-served.json"
        let bookmarked = Poll.until(timeout: .seconds(10), every: .milliseconds(20)) {
            ((try? String(contentsOfFile: preferencesPath, encoding: .utf8)) ?? "").contains("Travel #1")
        }
        #expect(bookmarked, "the bookmark is in \(preferencesPath)")

        // Throttled: the countdown shows, and the query is sent again when it ends.
        let fault = try served.cli.run(["faults", "add", "requestRateLimited", "--operation", "query", "--retry-after", "5", "--client", "server"])
        #expect(fault.status == 0, "\(fault.stderr)")
        pane.keys("1")
        try pane.waitFor("Filter nights > 10")
        pane.keys("r")
        try pane.waitFor("throttled by the server — retrying in")
        try pane.waitFor("throttled by the server", present: false)
        try pane.waitFor("1/\(names.count) match")
        #expect(!pane.capture().contains("requestRateLimited"), "the retry was answered")
        // A long wait: Esc stops it, and the call fails with the server's error.
        #expect(try served.cli.run(["faults", "add", "requestRateLimited", "--operation", "query", "--retry-after", "600", "--client", "server"]).status == 0)
        pane.keys("r")
        try pane.waitFor("retrying in 600 s, Esc cancels")
        pane.keys("Escape")
        try pane.waitFor("requestRateLimited (7)")
        #expect(!pane.capture().contains("retrying in"))
        // The server says the sign-in lapsed (HTTP 421): the status line says what to run.
        #expect(try served.cli.run(["faults", "add", "notAuthenticated", "--operation", "query", "--client", "server"]).status == 0)
        pane.keys("r")
        try pane.waitFor("session expired — run: stratus remote login served")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    /// Signed out (the server knows the session no more): the status line says what to run, and
    /// once it has run in another terminal, `r` goes on with the new sign-in.
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable))
    func aLapsedSignInSaysWhatToRunAndTheNewOneIsTaken() throws {
        let served = try RemoteModeTests.Served()
        let path = served.config + "/stratus/credentials.json"
        var credentials = try served.credentials()
        credentials["webAuthToken"] = "158__54__0000"
        try JSONSerialization.data(withJSONObject: ["served": credentials]).write(to: URL(fileURLWithPath: path))
        let pane = try TmuxPane(width: 110, height: 30)
        defer { pane.close() }
        pane.run(dashboard(served, remote: "served", "--zone Travel --type Trip"))
        try pane.waitFor("session expired — run: stratus remote login served")
        #expect(!pane.capture().contains("trip-"))
        let login = try served.remote(["remote", "login", "served", "--paste"], stdin: served.webToken + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        pane.keys("r")
        try pane.waitForResults()
        #expect(pane.capture().contains("trip-"))
        #expect(!pane.capture().contains("session expired"))
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    /// A production container: its records loaded from the demo into a production store, served.
    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable))
    func writesToProductionAskFirstUnlessYes() throws {
        let served = try RemoteModeTests.Served()
        let production = served.cli.folder.path("production.sqlite")
        let schema = served.cli.folder.path("app.ckdb")
        let trips = served.cli.folder.path("trips.jsonl")
        #expect(try served.cli.run(["schema", "export", "--out", schema]).status == 0)
        #expect(try StratusBinary.run(["schema", "import", schema, "--environment", "production"], store: production).status == 0)
        #expect(try served.cli.run(["export", "--zone", "Travel", "--type", "Trip", "--out", trips]).status == 0)
        let imported = try StratusBinary.run(["save", "--import", trips], store: production)
        #expect(imported.status == 0, "\(imported.stderr)")
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", "iCloud.live"], store: production).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = try StratusBinary.run(["auth", "login", "--container", "iCloud.live"], store: production).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServedStore(store: production)
        defer { server.stop() }
        let port = try #require(server.port)
        #expect(try served.remote(["remote", "add", "live", "--container", "iCloud.live", "--environment", "production",
                                   "--url", "http://127.0.0.1:\(port)"]).status == 0)
        #expect(try served.remote(["remote", "login", "live", "--api-token", apiToken, "--paste"], stdin: webToken + "\n").status == 0)
        func saved(_ budget: String) throws -> Int {
            let found = try StratusBinary.json(["query", "--zone", "Travel", "--type", "Trip", "--filter", "budget == %@", "--arg", "double:\(budget)"],
                                               store: production)
            return (found["records"] as? [Any])?.count ?? -1
        }
        func edit(_ pane: TmuxPane, budget: String) throws {
            pane.keys("Enter")
            try pane.waitFor("recordChangeTag")
            pane.keys("e")
            try pane.waitFor("Ctrl-S saves")
            pane.keys("C-u")
            pane.type(budget)
            pane.keys("C-s")
        }

        let pane = try TmuxPane(width: 110, height: 30)
        defer { pane.close() }
        pane.run(dashboard(served, remote: "live", "--zone Travel --type Trip"))
        try pane.waitFor("remote: live (production) ▸ private ▸ Travel ▸ Trip")
        try pane.waitForResults()
        try edit(pane, budget: "111.5")
        try pane.waitFor("Write to production?")
        pane.keys("n")
        try pane.waitFor("Nothing was written to production.")
        #expect(try saved("111.5") == 0)
        pane.keys("Escape")
        try pane.waitFor("recordChangeTag", present: false)
        try edit(pane, budget: "111.5")
        try pane.waitFor("Write to production?")
        pane.keys("y")
        try pane.waitFor("Saved Trip")
        #expect(try saved("111.5") == 1)
        pane.keys("Escape")
        try pane.waitFor("recordChangeTag", present: false)
        pane.keys("q")
        try pane.waitFor("EXIT=0")

        // --yes: no question.
        pane.run("clear; " + dashboard(served, remote: "live", "--zone Travel --type Trip --yes"))
        try pane.waitFor("remote: live (production)")
        try pane.waitForResults()
        try edit(pane, budget: "222.5")
        try pane.waitFor("Saved Trip")
        #expect(!pane.capture().contains("Write to production?"))
        #expect(try saved("222.5") == 1)
        pane.keys("Escape")
        try pane.waitFor("recordChangeTag", present: false)
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable))
    func anotherUserIsRefusedWhatTheServerRefuses() throws {
        let served = try RemoteModeTests.Served()
        #expect(try served.cli.run(["users", "create", "carol"]).status == 0)
        let carol = try served.signIn(as: "carol", remote: "as-carol")

        let pane = try TmuxPane(width: 110, height: 30)
        defer { pane.close() }
        pane.run(dashboard(served, remote: "as-carol", "--type Announcement"))
        try pane.waitFor("remote: as-carol (development)")
        // Act As: the signed-in user's databases.
        pane.keys("A")
        try pane.waitFor("Act as the signed-in user in")
        pane.keys("k")
        pane.keys("Enter")
        try pane.waitFor("▸ public ▸")
        try pane.waitFor("announcement-0")
        // The owner's announcements: carol may read them, not delete them.
        let announcements = { try served.cli.json(["query", "--db", "public", "--type", "Announcement", "--all"])["records"] as? [[String: Any]] ?? [] }
        let before = try announcements().count
        #expect(before > 0)
        pane.keys("d")
        try pane.waitFor("y yes")
        pane.keys("y")
        try pane.waitFor("permissionFailure")
        #expect(pane.capture().contains("WRITE operation not permitted on record type 'Announcement'"))
        #expect(try announcements().count == before, "nothing was deleted on the server")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
        for secret in [served.apiToken, served.webToken, carol] { #expect(!pane.capture().contains(secret)) }
    }
}
