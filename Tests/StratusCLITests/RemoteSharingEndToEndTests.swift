import Foundation
import StratusTestSupport
import Testing

/// The Sharing tab of the real `stratus dashboard --remote` in a tmux pane against a
/// `stratus serve` the test starts: it lists the shares the dashboard on the served store lists
/// (users by record name, since CKWS has no aliases), and a share made there is the store's.
@Suite(.serialized) struct RemoteSharingEndToEndTests {
    /// The share and participant rows of a Sharing tab on screen.
    static func rows(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains(" · https://www.icloud.com/share/") || $0.contains(/\s{2}read-(only|write)\s{2}(invited|accepted|removed)$/) }
    }

    /// The share URL `stratus share create` prints first.
    static func url(_ printed: String) -> String? {
        printed.split(whereSeparator: \.isWhitespace).first.map(String.init)
    }

    @Test(.enabled(if: DashboardEndToEndTests.tmuxAvailable))
    func theRemoteSharingTabListsWhatTheStoresDoesAndMakesShares() throws {
        let served = try RemoteModeTests.Served()
        let cli = served.cli
        #expect(try cli.run(["users", "create", "alice"]).status == 0)
        let alice = try #require(try cli.json(["users", "current", "--user", "alice"])["userRecordName"] as? String)
        let url = try #require(Self.url(try cli.run(["share", "create", "--record", "trip-4", "--zone", "Travel"]).stdout))
        #expect(try cli.run(["share", "add", url, "--participant", "alice", "--permission", "read-write"]).status == 0)
        #expect(try cli.run(["zones", "create", "Notes", "--user", "alice"]).status == 0)
        let note = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "one"}}}"#
        #expect(try cli.run(["save", "--zone", "Notes", "--user", "alice"], stdin: note).status == 0)
        let theirs = try #require(Self.url(try cli.run(["share", "create", "--zone", "Notes", "--user", "alice", "--public-permission", "read-only"]).stdout))
        #expect(try cli.run(["share", "accept", theirs]).status == 0)

        let local = try TmuxPane(width: 130, height: 30)
        defer { local.close() }
        local.run("env TERM=tmux-256color \(StratusCLI.binary.path) dashboard --store \(cli.storePath) --zone Travel --type Trip")
        try local.waitForResults()
        local.keys("7")
        try local.waitFor(theirs)
        let remote = try TmuxPane(width: 130, height: 30)
        defer { remote.close() }
        remote.run("env XDG_CONFIG_HOME=\(served.config) STRATUS_STORE=/nonexistent/store.sqlite TERM=tmux-256color "
                   + "\(StratusCLI.binary.path) dashboard --remote served --zone Library --type Book; echo EXIT=$?")
        try remote.waitForResults()
        remote.keys("7")
        try remote.waitFor(theirs)
        let expected = Self.rows(local.capture()).map { $0.replacingOccurrences(of: "alice", with: alice) }
        #expect(expected.count == 3, "\(expected)")
        #expect(Self.rows(remote.capture()) == expected)
        #expect(!remote.capture().contains("local-only"))

        // A share made on the remote (the zone on screen, anyone with the URL may read) is the store's.
        remote.keys("n")
        try remote.waitFor("every record in it")
        remote.keys("Enter")
        try remote.waitFor("Who may join")
        remote.keys("Down", "Enter")
        try remote.waitFor("Shared zone Library")
        let listed = try cli.json(["share", "list"])
        let owned = listed["owned"] as? [[String: Any]] ?? []
        #expect(owned.contains { (($0["zoneID"] as? [String: Any])?["zoneName"] as? String) == "Library" && $0["rootRecordName"] == nil
            && ($0["publicPermission"] as? String) == "READ_ONLY" }, "\(listed)")
        // CKWS has no call for a record's share status: the inspector says so, not that it is in no share.
        remote.keys("1")
        try remote.waitForResults()
        remote.keys("Enter")
        try remote.waitFor("share status not available remotely")
        remote.keys("Escape")
        try remote.waitFor("recordChangeTag", present: false)
        remote.keys("q")
        try remote.waitFor("EXIT=0")
    }
}
