import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusTestSupport
import Testing

/// `--remote NAME` against a `stratus serve` the test starts on a port chosen at run time: every
/// command prints what the same command prints on the server's store, and no secret is printed.
@Suite struct RemoteModeTests {
    /// A demo store of `records` records served over loopback, a remote naming it, signed in
    /// with `--paste`.
    final class Served {
        let cli: StratusCLI
        let server: ServedStore
        let apiToken: String
        let webToken: String
        var config: String { cli.folder.path("config") }

        init(records: Int = 60, serveArguments: [String] = [], signIn: Bool = true) throws {
            cli = try StratusCLI()
            _ = try cli.run(["demo", "--records", String(records), "--no-ui"])
            apiToken = try cli.run(["auth", "api-token", "--container", "iCloud.remote"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            webToken = try cli.run(["auth", "login", "--container", "iCloud.remote"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            server = try ServedStore(store: cli.storePath, arguments: serveArguments)
            let port = try #require(server.port)
            let added = try remote(["remote", "add", "served", "--container", "iCloud.remote", "--environment", "development",
                                    "--url", "http://127.0.0.1:\(port)"])
            #expect(added.status == 0, "\(added.stderr)")
            if signIn {
                let login = try remote(["remote", "login", "served", "--api-token", apiToken, "--paste"], stdin: webToken + "\n")
                #expect(login.status == 0, "\(login.stderr)")
                #expect(login.stdout.contains("signed in to served"))
            }
        }

        /// Runs `stratus ARGS` with the test's config folder and no store of its own.
        func remote(_ arguments: [String], stdin: String? = nil) throws -> ProcessOutcome {
            try StratusBinary.run(arguments, environment: ["XDG_CONFIG_HOME": config, "STRATUS_STORE": "/nonexistent/store.sqlite"], stdin: stdin)
        }

        /// Adds a remote named `remote` on the same server, signed in as `user` (a store user)
        /// with a web token of their own; returns that token.
        @discardableResult
        func signIn(as user: String, remote: String) throws -> String {
            let token = try cli.run(["auth", "login", "--container", "iCloud.remote", "--user", user]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let port = try #require(server.port)
            #expect(try self.remote(["remote", "add", remote, "--container", "iCloud.remote", "--environment", "development",
                                     "--url", "http://127.0.0.1:\(port)"]).status == 0)
            let login = try self.remote(["remote", "login", remote, "--api-token", apiToken, "--paste"], stdin: token + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            return token
        }

        func credentials() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: config + "/stratus/credentials.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["served"] as? [String: Any] ?? [:]
        }

        /// Starts `remote login --no-browser` and reads the sign-in URL it prints; the caller
        /// plays the browser, then waits for the process.
        func startLogin() throws -> (Process, Pipe, String) {
            let login = Process()
            login.executableURL = StratusBinary.url
            // The timeout only guards against a hang: each test delivers the token however slow
            // the machine is (a busy machine took over a minute to get there).
            login.arguments = ["remote", "login", "served", "--api-token", apiToken, "--no-browser", "--timeout", "1800"]
            login.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": config]) { _, new in new }
            let output = Pipe()
            login.standardOutput = output
            login.standardError = Pipe()
            try login.run()
            var printed = ""
            while !printed.contains("callback=") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += String(decoding: chunk, as: UTF8.self)
            }
            let url = printed.split(separator: "\n").first { $0.hasPrefix("http://") }.map(String.init) ?? ""
            return (login, output, url)
        }

        deinit {
            server.stop()
            cli.remove()
        }
    }

    @Test func everyReadCommandPrintsWhatItPrintsOnTheServersStore() throws {
        let served = try Served()
        let names = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--limit", "3"])["records"] as? [[String: Any]] ?? []
        let three = names.compactMap { $0["recordName"] as? String }
        #expect(three.count == 3)
        let commands: [[String]] = [
            ["zones"], ["zones", "--json"],
            ["query", "--zone", "Travel", "--type", "Trip", "--all", "--json"],
            ["query", "--zone", "Travel", "--type", "Trip", "--filter", "nights > %d", "--arg", "5", "--sort=-nights", "--all"],
            ["query", "--zone", "Travel", "--type", "Trip", "--keys", "nights", "--limit", "200", "--json"],
            ["fetch", "--zone", "Travel"] + three, ["fetch", "--zone", "Travel", "--json", "--no-keys"] + three,
            ["changes", "--zone", "Travel"], ["changes", "--zone", "Travel", "--json", "--limit", "7"],
            ["changes", "--zone", "Library", "--json"],
            ["changes", "--database"], ["changes", "--database", "--json"],
        ]
        for command in commands {
            let local = try served.cli.run(command)
            let remote = try served.remote(command + ["--remote", "served"])
            #expect(local.status == 0, "\(command): \(local.stderr)")
            #expect(remote.status == local.status, "\(command): \(remote.stderr)")
            #expect(remote.stdout == local.stdout, "\(command)")
            #expect(!remote.stdout.isEmpty)
            for secret in [served.webToken, served.apiToken] {
                #expect(!remote.stdout.contains(secret) && !remote.stderr.contains(secret), "\(command) printed a secret")
            }
        }
    }

    /// `share` on a remote: a zone shared, a participant invited by user record name and taken
    /// out again, each on the server's store, and `share list` printing what it prints there
    /// (participants by record name, as Web Services knows them).
    @Test func sharesAreMadeAndListedOnTheServersStore() throws {
        let served = try Served()
        let created = try served.cli.run(["users", "create", "alice", "--json"])
        let alice = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])["userRecordName"] as? String
        let aliceRecordName = try #require(alice, "\(created.stdout)")
        let share = try served.remote(["share", "create", "--zone", "Library", "--remote", "served"])
        #expect(share.status == 0, "\(share.stderr)")
        let url = try #require(share.stdout.split(separator: "\n").first.map(String.init))
        #expect(try served.cli.run(["share", "list"]).stdout.contains(url), "the share is in the server's store")

        let added = try served.remote(["share", "add", url, "--participant", aliceRecordName, "--permission", "read-write", "--remote", "served"])
        #expect(added.status == 0, "\(added.stderr)")
        let local = try served.cli.run(["share", "list"])
        let remote = try served.remote(["share", "list", "--remote", "served"])
        #expect(local.stdout.contains("    alice  read-write  invited"), "\(local.stdout)")
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout == local.stdout.replacingOccurrences(of: "    alice  ", with: "    \(aliceRecordName)  "))

        let removed = try served.remote(["share", "remove", url, "--participant", aliceRecordName, "--remote", "served"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let afterRemoval = try served.cli.run(["share", "list"]).stdout
        #expect(afterRemoval.contains("    alice  read-write  removed"), "taken out on the server's store: \(afterRemoval)")
        let remoteAfterRemoval = try served.remote(["share", "list", "--remote", "served"]).stdout
        #expect(remoteAfterRemoval == afterRemoval.replacingOccurrences(of: "    alice  ", with: "    \(aliceRecordName)  "), "\(remoteAfterRemoval)")

        // The owner ends the share: its record goes from the server's store, the records stay.
        let records = try served.cli.run(["query", "--zone", "Library", "--type", "Book", "--all", "--json"]).stdout
        let deleted = try served.remote(["share", "delete", url, "--remote", "served"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted \(url)\n")
        #expect(!(try served.cli.run(["share", "list"]).stdout.contains(url)), "the share is gone from the server's store")
        #expect(try served.cli.run(["query", "--zone", "Library", "--type", "Book", "--all", "--json"]).stdout == records, "the shared records stay")
        let again = try served.remote(["share", "delete", url, "--remote", "served"])
        #expect(again.status == 1, "a share already ended cannot end again: \(again.stdout)")
    }

    /// A participant signed in to a remote who runs `share delete` leaves the share (CloudKit's
    /// rule): the share and its records stay on the server for the owner, and the participant's
    /// shared database no longer has the zone.
    @Test func aParticipantDeletingTheShareOverTheRemoteLeavesIt() throws {
        let served = try Served()
        #expect(try served.cli.run(["users", "create", "alice"]).status == 0)
        let url = try #require(try served.cli.json(["share", "create", "--zone", "Library"])["url"] as? String)
        #expect(try served.cli.run(["share", "add", url, "--participant", "alice", "--permission", "read-only"]).status == 0)
        #expect(try served.cli.run(["share", "accept", url, "--user", "alice"]).status == 0)

        // Alice signs in to the same server as a remote of her own.
        try served.signIn(as: "alice", remote: "as-alice")
        let sharedBefore = try served.remote(["zones", "--db", "shared", "--remote", "as-alice"])
        #expect(sharedBefore.status == 0, "\(sharedBefore.stderr)")
        #expect(sharedBefore.stdout.contains("Library"), "alice sees the shared zone: \(sharedBefore.stdout)")
        let records = try served.cli.run(["query", "--zone", "Library", "--type", "Book", "--all", "--json"]).stdout

        let left = try served.remote(["share", "delete", url, "--remote", "as-alice"])
        #expect(left.status == 0, "\(left.stderr)")
        let sharedAfter = try served.remote(["zones", "--db", "shared", "--remote", "as-alice"])
        #expect(sharedAfter.status == 0, "\(sharedAfter.stderr)")
        #expect(!sharedAfter.stdout.contains("Library"), "alice left the share: \(sharedAfter.stdout)")
        // The owner's share and records stay on the server's store.
        let list = try served.cli.run(["share", "list"]).stdout
        #expect(list.contains(url), "the share stays: \(list)")
        #expect(try served.cli.run(["query", "--zone", "Library", "--type", "Book", "--all", "--json"]).stdout == records)
    }

    @Test func subscriptionsSavesAndDeletesGoToTheServersStore() throws {
        let served = try Served()
        #expect(try served.cli.run(["subscriptions", "create", "--kind", "zone", "--zone", "Travel", "--id", "travel-changes"]).status == 0)
        #expect(try served.cli.run(["subscriptions", "create", "--kind", "database", "--id", "everything"]).status == 0)
        for command in [["subscriptions"], ["subscriptions", "--json"]] {
            let local = try served.cli.run(command)
            let remote = try served.remote(command + ["--remote", "served"])
            #expect(remote.status == 0, "\(remote.stderr)")
            #expect(remote.stdout == local.stdout, "\(command)")
            #expect(local.stdout.contains("travel-changes"))
        }
        // A query subscription's filter comes back as CKWS spells it: the same query, in its words.
        #expect(try served.cli.run(["subscriptions", "create", "--type", "Trip", "--filter", "nights > %d", "--arg", "3", "--id", "long-trips"]).status == 0)
        let query = try served.remote(["subscriptions", "--remote", "served"])
        #expect(query.stdout.contains("long-trips  query  type Trip  filter %K > %@  on create,update,delete"))
        let names = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--limit", "2"])["records"] as? [[String: Any]] ?? []
        let doomed = try #require(names.first?["recordName"] as? String)
        let deleted = try served.remote(["delete", "--remote", "served", "--zone", "Travel", doomed, "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == #"{"records":[{"recordName":"\#(doomed)","deleted":true}]}"# + "\n")
        #expect(try served.cli.run(["fetch", "--zone", "Travel", doomed]).status == 1)
        // Saves reach the server's store and meet its rules, as a local save does.
        let notes = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}}}"# + "\n"
            + #"{"recordName": "n2", "recordType": "Note", "fields": {"title": {"value": "yo"}}}"#
        let saved = try served.remote(["save", "-", "--remote", "served", "--zone", "Travel"], stdin: notes)
        #expect(saved.status == 0, "\(saved.stderr)")
        let lines = saved.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("saved Note n1  tag ") && lines[1].hasPrefix("saved Note n2  tag "))
        let tag = String(lines[0].dropFirst("saved Note n1  tag ".count))
        #expect(try served.cli.run(["fetch", "--zone", "Travel", "n1"]).stdout.hasPrefix("Note n1  tag \(tag)  modified "))
        let again = try served.remote(["save", "-", "--remote", "served", "--zone", "Travel"], stdin: notes)
        #expect(again.status == 1)
        #expect(again.stderr.contains("failed n1: serverRecordChanged (14)"))
        #expect(again.stderr.contains("error: partialFailure (2): 2 of 2 records were not saved."))
        let token = try served.remote(["token", "--remote", "served", "--zone", "Travel"])
        #expect(token.status == 2)
        #expect(token.stderr.contains("no call for a token alone"))
    }

    @Test func errorsKeepTheirCodesAndPointAtTheRemote() throws {
        let served = try Served()
        let zone = try served.remote(["query", "--remote", "served", "--zone", "Nowhere", "--type", "Trip"])
        #expect(zone.status == 1)
        #expect(zone.stderr.contains("zoneNotFound (26)"))
        let missing = try served.remote(["fetch", "--remote", "served", "--zone", "Travel", "no-such-record"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such-record: unknownItem (11)"))
        let unknown = try served.remote(["zones", "--remote", "elsewhere"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no remote named 'elsewhere'"))
        #expect(unknown.stderr.contains("stratus remote list"))
        let both = try served.remote(["zones", "--remote", "served", "--store", served.cli.storePath])
        #expect(both.status == 2)
        let local = try served.remote(["export", "--db", "private", "--remote", "served"])
        #expect(local.status == 2)
        let csv = try served.remote(["save", "--remote", "served", "--format", "csv", "-"], stdin: "recordName\n")
        #expect(csv.status == 2)
        #expect(csv.stderr.contains("local store only"))
        // A session the server does not know: sign in again, said with the remote's name.
        let token = try served.credentials()["webAuthToken"] as? String ?? ""
        #expect(!token.isEmpty)
        let relogin = try served.remote(["remote", "login", "served", "--paste"], stdin: "158__54__0000\n")
        #expect(relogin.status == 1)
        #expect(relogin.stderr.contains("notAuthenticated (9)"))
        #expect(relogin.stderr.contains("stratus remote login served"))
    }

    @Test func credentialsAreTheUsersAloneAndNeverPrintedInFull() throws {
        let served = try Served()
        let path = served.config + "/stratus/credentials.json"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: served.config + "/stratus")[.posixPermissions] as? Int)
        #expect(folderMode == 0o700)
        for command in [["remote", "show", "served"], ["remote", "show", "served", "--json"], ["remote", "list"], ["remote", "list", "--json"]] {
            let shown = try served.remote(command)
            #expect(shown.status == 0)
            #expect(!shown.stdout.contains(served.webToken) && !shown.stdout.contains(served.apiToken), "\(command)")
        }
        #expect(try served.remote(["remote", "show", "served"]).stdout.contains("api token    \(served.apiToken.prefix(4))…"))
        #expect(try served.remote(["remote", "remove", "served"]).status == 0)
        #expect(try served.credentials().isEmpty)
        #expect(try served.remote(["remote", "show", "served"]).status == 1)
    }

    /// The browser's part is scripted: the test opens the printed sign-in URL and presses the
    /// button, which sends the browser to the loopback callback with the token.
    @Test func loginInTheBrowserEndsAtTheLoopbackCallbackAndRotatedTokensAreKept() async throws {
        let served = try Served(serveArguments: ["--token-rotation", "0"], signIn: false)
        let (login, output, signInURL) = try served.startLogin()
        var printed = signInURL
        let signIn = signInURL
        var press = URLRequest(url: try #require(URL(string: signIn)))
        press.httpMethod = "POST"
        let (page, _) = try await URLSession.shared.data(for: press)
        #expect(String(decoding: page, as: UTF8.self).contains("Signed in"))
        login.waitUntilExit()
        printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(login.terminationStatus == 0)
        #expect(printed.contains("signed in to served"))
        // Each answer hands out a new token; the file holds the newest before the next process runs.
        let first = try #require(try served.credentials()["webAuthToken"] as? String)
        #expect(try served.remote(["zones", "--remote", "served"]).status == 0)
        let second = try #require(try served.credentials()["webAuthToken"] as? String)
        #expect(second != first)
        let again = try served.remote(["zones", "--remote", "served"])
        #expect(again.status == 0)
        #expect(!again.stdout.contains(second) && !again.stderr.contains(second))
        #expect(try served.credentials()["webAuthToken"] as? String != second)
    }

    /// A sign-in page that hands the token back in the fragment (which a browser does not send)
    /// gets a page that moves it into the query; `ckSession` is read as `ckWebAuthToken` is.
    @Test func aTokenInTheFragmentComesBackThroughTheCallbacksPage() async throws {
        let served = try Served(signIn: false)
        let (login, _, signInURL) = try served.startLogin()
        let signIn = try #require(URLComponents(string: signInURL))
        let callback = try #require(signIn.queryItems?.first { $0.name == "callback" }?.value)
        #expect(callback.hasPrefix("http://127.0.0.1:") && callback.hasSuffix("/callback"))
        let (page, _) = try await URLSession.shared.data(from: try #require(URL(string: callback)))
        #expect(String(decoding: page, as: UTF8.self).contains("location.hash"))
        let (done, _) = try await URLSession.shared.data(from: try #require(URL(string: callback + "?ckSession=" + served.webToken)))
        #expect(String(decoding: done, as: UTF8.self).contains("Signed in"))
        login.waitUntilExit()
        #expect(login.terminationStatus == 0)
        #expect(try served.credentials()["webAuthToken"] as? String == served.webToken)
    }

    /// A web auth token past its lifetime: the command says to sign in again, naming the remote.
    @Test func anExpiredSignInAsksToSignInAgain() async throws {
        let served = try Served(serveArguments: ["--token-lifetime", "0"], signIn: false)
        let (login, _, signIn) = try served.startLogin()
        var press = URLRequest(url: try #require(URL(string: signIn)))
        press.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: press)
        login.waitUntilExit()
        let errors = String(decoding: (login.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(login.terminationStatus == 1)
        #expect(errors.contains("notAuthenticated (9): the session expired"))
        #expect(errors.contains("hint: sign in again with `stratus remote login served"))
        let zones = try served.remote(["zones", "--remote", "served"])
        #expect(zones.status == 1)
        #expect(zones.stderr.contains("stratus remote login served"))
    }
}
