import Foundation
import StratusTestSupport
import Testing

/// `stratus pull` against a `stratus serve` the test starts on a loopback port: the pulled store
/// holds what the server's store holds, record for record and tag for tag (compared through
/// `stratus export` of both), pulling again brings exactly what changed, and throttling, a
/// session that ends and a kill mid-way lose nothing.
@Suite struct PullTests {
    typealias Served = RemoteModeTests.Served

    /// Each record of a database as `stratus export --no-assets` writes it (every field and
    /// system field), by zone and record name.
    static func records(in store: String, db: String = "private", type: String? = nil, user: String? = nil) throws -> [String: String] {
        let outcome = try StratusBinary.run(["export", "--no-assets", "--db", db] + (type.map { ["--type", $0] } ?? []) + (user.map { ["--user", $0] } ?? []),
                                            store: store)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var records: [String: String] = [:]
        for line in outcome.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let zone = (object["zoneID"] as? [String: Any])?["zoneName"] as? String ?? ""
            records[zone + "/" + (object["recordName"] as? String ?? "")] = String(line)
        }
        return records
    }

    /// The content of every asset a database's records point at, as `stratus export` embeds it
    /// (a `data:` URL per checksum).
    static func assets(in store: String) throws -> [String: String] {
        let outcome = try StratusBinary.run(["export", "--db", "private"], store: store)
        var assets: [String: String] = [:]
        for line in outcome.stdout.split(separator: "\n") where line.contains("data:") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for case let field as [String: Any] in (object["fields"] as? [String: Any] ?? [:]).values {
                let values = (field["value"] as? [[String: Any]]) ?? [field["value"] as? [String: Any] ?? [:]]
                for value in values {
                    if let checksum = value["fileChecksum"] as? String, let url = value["downloadURL"] as? String { assets[checksum] = url }
                }
            }
        }
        return assets
    }

    /// `stratus pull ARGS --json`'s counts, and the outcome.
    static func pull(_ served: Served, _ arguments: [String]) throws -> (ProcessOutcome, [String: [String: Int]]) {
        let outcome = try served.remote(["pull", "served"] + arguments + ["--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any] ?? [:]
        return (outcome, object.compactMapValues { $0 as? [String: Int] })
    }

    /// What a pull should have brought: records new, changed (another change tag) and deleted.
    static func difference(from before: [String: String], to after: [String: String]) -> (new: Int, changed: Int, deleted: Int) {
        func tag(_ line: String?) -> String? {
            line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["recordChangeTag"] as? String
        }
        let new = after.keys.filter { before[$0] == nil }.count
        let deleted = before.keys.filter { after[$0] == nil }.count
        let changed = after.keys.filter { before[$0] != nil && tag(before[$0]) != tag(after[$0]) }.count
        return (new, changed, deleted)
    }

    @Test func fiftyThousandRecordsArePulledExactlyAndThenOnlyWhatChanged() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let served = try Served(records: 50_000)
        print("pull test: a served store of 50,000 demo records made in \(clock.now - started)")
        let source = served.cli.storePath
        let pulled = served.cli.folder.path("pulled.sqlite")
        // The schema names the types of the default zone, which has no change feed.
        let schema = served.cli.folder.path("app.ckdb")
        #expect(try served.cli.run(["schema", "export", "--out", schema]).status == 0)

        // A pull killed once it has committed its first pages, then pulled again: nothing is
        // duplicated or lost.
        let killed = StratusBinary.process(["pull", "served", "--to", pulled, "--schema", schema], store: nil)
        killed.environment?["XDG_CONFIG_HOME"] = served.config
        killed.standardOutput = FileHandle.nullDevice
        killed.standardError = FileHandle.nullDevice
        try killed.run()
        let midway = Poll.until(timeout: .seconds(120), every: .milliseconds(10)) {
            (try? String(contentsOfFile: pulled + ".pull.json", encoding: .utf8))?.contains("\"token\"") == true
        }
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(midway)
        #expect(killed.terminationReason == .uncaughtSignal, "the pull ended before it was killed")

        let pullStarted = clock.now
        let (first, counts) = try PullTests.pull(served, ["--to", pulled, "--schema", schema])
        print("pull test: the rest of the 50,000 records pulled in \(clock.now - pullStarted)")
        #expect(first.status == 0, "\(first.stderr)")
        let expected = try PullTests.records(in: source)
        #expect(expected.count > 45_000)
        let copy = try PullTests.records(in: pulled)
        #expect(copy.count == expected.count)
        #expect(copy == expected)
        #expect((counts["records"]?["new"] ?? 0) > 0 && (counts["records"]?["new"] ?? 0) < expected.count)
        #expect(counts["records"]?["changed"] == 0)
        // Assets came down and read back as the server's.
        let assets = try PullTests.assets(in: source)
        #expect(!assets.isEmpty)
        #expect(try PullTests.assets(in: pulled) == assets)

        let (second, nothing) = try PullTests.pull(served, ["--to", pulled, "--schema", schema])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(nothing["records"] == ["new": 0, "changed": 0, "deleted": 0])
        #expect(nothing["zones"] == ["new": 0, "changed": 0, "deleted": 0])

        // Creates, updates and deletes on the server, a zone made and one deleted.
        let trips = try served.cli.json(["query", "--zone", "Travel", "--type", "Trip", "--limit", "3"])["records"] as? [[String: Any]] ?? []
        let names = trips.compactMap { $0["recordName"] as? String }
        #expect(names.count == 3)
        let update = names.prefix(2).map { #"{"recordName": "\#($0)", "recordType": "Trip", "fields": {"nights": {"value": 99}}}"# }
        #expect(try served.cli.run(["save", "-", "--zone", "Travel", "--policy", "changed-keys"], stdin: update.joined(separator: "\n")).status == 0)
        #expect(try served.cli.run(["delete", "--zone", "Travel", names[2]]).status == 0)
        #expect(try served.cli.run(["zones", "create", "Extra"]).status == 0)
        let notes = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "one"}}}"# + "\n"
            + #"{"recordName": "n2", "recordType": "Note", "fields": {"title": {"value": "two"}}}"#
        #expect(try served.cli.run(["save", "-", "--zone", "Extra"], stdin: notes).status == 0)
        #expect(try served.cli.run(["save", "-", "--zone", "Travel"], stdin: notes).status == 0)
        #expect(try served.cli.run(["zones", "delete", "People"]).status == 0)
        let changed = try PullTests.records(in: source)
        let survivors = expected.filter { !$0.key.hasPrefix("People/") }
        let (new, updated, deleted) = PullTests.difference(from: survivors, to: changed)
        // A deleted trip takes the records that point at it with DELETE_SELF along.
        #expect(new == 4 && updated == 2 && deleted >= 1)

        let (third, changes) = try PullTests.pull(served, ["--to", pulled, "--schema", schema])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(changes["records"] == ["new": new, "changed": updated, "deleted": deleted])
        #expect(changes["zones"] == ["new": 1, "changed": 2, "deleted": 1])
        #expect(try PullTests.records(in: pulled) == changed)
    }

    @Test func throttlingIsWaitedOutAndASessionThatEndsMidwayResumesAfterLogin() throws {
        let served = try Served(records: 2000)
        let pulled = served.cli.folder.path("pulled.sqlite")
        for fault in [["requestRateLimited", "--after", "1", "--retry-after", "1"], ["zoneBusy", "--after", "3", "--retry-after", "1"],
                      ["notAuthenticated", "--after", "5"]] {
            #expect(try served.cli.run(["faults", "add"] + fault + ["--operation", "zone-changes"]).status == 0)
        }
        // The default zone has no change feed: its notes are read by type.
        let (stopped, partial) = try PullTests.pull(served, ["--to", pulled, "--types", "Note"])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("waiting 1 s: the server answered requestRateLimited (retry 1 of 5)"))
        #expect(stopped.stderr.contains("waiting 1 s: the server answered serviceUnavailable (retry 1 of 5)"))
        #expect(stopped.stderr.contains("log in again: stratus remote login served"))
        for secret in [served.webToken, served.apiToken] { #expect(!stopped.stdout.contains(secret) && !stopped.stderr.contains(secret)) }
        let kept = partial["records"]?["new"] ?? 0
        #expect(kept > 0)

        let login = try served.remote(["remote", "login", "served", "--api-token", served.apiToken, "--paste"], stdin: served.webToken + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let (resumed, rest) = try PullTests.pull(served, ["--to", pulled, "--types", "Note"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let expected = try PullTests.records(in: served.cli.storePath)
        #expect(try PullTests.records(in: pulled) == expected, "\(resumed.stderr)")
        #expect(kept + (rest["records"]?["new"] ?? 0) == expected.count)
    }

    @Test func thePublicDatabaseIsPulledByTheTypesOfItsSchema() throws {
        let served = try Served(records: 200)
        let schema = served.cli.folder.path("app.ckdb")
        #expect(try served.cli.run(["schema", "export", "--out", schema]).status == 0)
        let pulled = served.cli.folder.path("public.sqlite")
        let refused = try served.remote(["pull", "served", "--to", pulled, "--db", "public"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("name its record types with --schema app.ckdb or --types T,U"))
        #expect(!FileManager.default.fileExists(atPath: pulled))
        let (outcome, counts) = try PullTests.pull(served, ["--to", pulled, "--db", "public", "--schema", schema])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = try PullTests.records(in: served.cli.storePath, db: "public", type: "Announcement")
        #expect(!expected.isEmpty)
        #expect(counts["records"]?["new"] == expected.count)
        #expect(try PullTests.records(in: pulled, db: "public", type: "Announcement") == expected)
        // A record deleted on the server is deleted here on the next pull (the types from --types).
        let doomed = try #require(expected.keys.sorted().first.map { String($0.dropFirst("_defaultZone/".count)) })
        #expect(try served.cli.run(["delete", "--db", "public", doomed]).status == 0)
        let (again, changes) = try PullTests.pull(served, ["--to", pulled, "--db", "public", "--types", "Announcement"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(changes["records"] == ["new": 0, "changed": 0, "deleted": 1])
        #expect(try PullTests.records(in: pulled, db: "public", type: "Announcement").count == expected.count - 1)
    }

    /// `--zone` pulls that zone alone; a zone whose token expired is pulled again from the
    /// beginning into an emptied zone, and ends exact.
    @Test func oneZoneAloneAndAZoneWhoseTokenExpired() throws {
        let served = try Served(records: 300)
        let pulled = served.cli.folder.path("pulled.sqlite")
        #expect(try PullTests.pull(served, ["--to", pulled, "--types", "Note"]).0.status == 0)
        let note = #"{"recordName": "z1", "recordType": "Note", "fields": {"title": {"value": "new"}}}"#
        for zone in ["Travel", "Library"] { #expect(try served.cli.run(["save", "-", "--zone", zone], stdin: note).status == 0) }
        let (travel, one) = try PullTests.pull(served, ["--to", pulled, "--zone", "Travel"])
        #expect(travel.status == 0, "\(travel.stderr)")
        #expect(one["records"] == ["new": 1, "changed": 0, "deleted": 0])
        #expect(try PullTests.records(in: pulled)["Library/z1"] == nil)
        // The next playback from a token is refused as expired.
        #expect(try served.cli.run(["faults", "add", "changeTokenExpired", "--operation", "zone-changes"]).status == 0)
        let (again, counts) = try PullTests.pull(served, ["--to", pulled, "--types", "Note"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("its token expired"))
        #expect((counts["records"]?["new"] ?? 0) >= 1)
        #expect(try PullTests.records(in: pulled) == PullTests.records(in: served.cli.storePath))
    }

    /// A `stratus serve` of a PostgreSQL store (a team's server) pulls as one of a file does.
    @Test func aServerOnPostgreSQLIsPulledExactly() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        #expect(try StratusBinary.run(["demo", "--records", "300", "--no-ui"], store: url).status == 0)
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", "iCloud.team"], store: url).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = try StratusBinary.run(["auth", "login", "--container", "iCloud.team"], store: url).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServedStore(store: url)
        defer { server.stop() }
        let port = try #require(server.port, "serve printed: \(server.firstLine)")
        let folder = try TemporaryDirectory("stratus-pull")
        defer { folder.remove() }
        let environment = ["XDG_CONFIG_HOME": folder.path("config")]
        #expect(try StratusBinary.run(["remote", "add", "team", "--container", "iCloud.team", "--environment", "development",
                                       "--url", "http://127.0.0.1:\(port)"], environment: environment).status == 0)
        #expect(try StratusBinary.run(["remote", "login", "team", "--api-token", apiToken, "--paste"], environment: environment, stdin: webToken + "\n").status == 0)
        let pulled = folder.path("team.sqlite")
        let outcome = try StratusBinary.run(["pull", "team", "--to", pulled, "--types", "Note"], environment: environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = try PullTests.records(in: url)
        #expect(!expected.isEmpty)
        #expect(try PullTests.records(in: pulled) == expected)
    }

    /// A zone shared with the signed-in user lands in its owner's private database here, the
    /// owner a local user of the same record name.
    @Test func sharedZonesGoToTheirOwnersPrivateDatabase() throws {
        let served = try Served(records: 300, signIn: false)
        #expect(try served.cli.run(["users", "create", "bob"]).status == 0)
        let url = try #require(try served.cli.json(["share", "create", "--zone", "Travel"])["url"] as? String)
        #expect(try served.cli.run(["share", "add", url, "--participant", "bob", "--permission", "read-only"]).status == 0)
        #expect(try served.cli.run(["share", "accept", url, "--user", "bob"]).status == 0)
        let bob = try served.cli.run(["auth", "login", "--container", "iCloud.remote", "--user", "bob"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let login = try served.remote(["remote", "login", "served", "--api-token", served.apiToken, "--paste"], stdin: bob + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let pulled = served.cli.folder.path("shared.sqlite")
        let (outcome, counts) = try PullTests.pull(served, ["--to", pulled, "--db", "shared"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let owner = try #require(try served.cli.json(["users", "current"])["userRecordName"] as? String)
        let expected = try PullTests.records(in: served.cli.storePath).filter { $0.key.hasPrefix("Travel/") }
        #expect(!expected.isEmpty)
        #expect(counts["records"]?["new"] == expected.count)
        #expect(try PullTests.records(in: pulled, user: owner) == expected)
    }

    /// A record the local store refuses is named with its reason, and its zone's token stays
    /// before it: once the store can take it, the next pull brings it.
    @Test func aRecordTheStoreRefusesIsListedAndPulledOnceItCanBe() throws {
        let served = try Served()
        let pulled = served.cli.folder.path("pulled.sqlite")
        #expect(try PullTests.pull(served, ["--to", pulled, "--types", "Note"]).0.status == 0)
        // The pulled store is made a production store, whose schema has no type Memo.
        let declared = served.cli.folder.path("declared.ckdb")
        #expect(try StratusBinary.run(["schema", "export", "--out", declared], store: pulled).status == 0)
        #expect(try StratusBinary.run(["schema", "import", declared, "--environment", "production"], store: pulled).status == 0)
        let memo = #"{"recordName": "m1", "recordType": "Memo", "fields": {"title": {"value": "new"}}}"#
        #expect(try served.cli.run(["save", "-", "--zone", "Travel"], stdin: memo).status == 0)
        let (refused, partial) = try PullTests.pull(served, ["--to", pulled, "--types", "Note"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("failed m1: "))
        #expect(refused.stderr.contains("1 records of zone Travel could not be written here"))
        #expect(partial["records"]?["new"] == 0)
        // With Memo declared, the next pull brings it.
        let grown = served.cli.folder.path("grown.ckdb")
        #expect(try served.cli.run(["schema", "export", "--out", grown]).status == 0)
        #expect(try StratusBinary.run(["schema", "import", grown, "--environment", "production"], store: pulled).status == 0)
        let (pulledAgain, counts) = try PullTests.pull(served, ["--to", pulled, "--types", "Note"])
        #expect(pulledAgain.status == 0, "\(pulledAgain.stderr)")
        #expect(counts["records"] == ["new": 1, "changed": 0, "deleted": 0])
        #expect(try PullTests.records(in: pulled) == PullTests.records(in: served.cli.storePath))
    }

    @Test func aStoreOfAnotherContainerOrNotPulledIsRefused() throws {
        let served = try Served()
        let pulled = served.cli.folder.path("pulled.sqlite")
        let (made, _) = try PullTests.pull(served, ["--to", pulled, "--no-assets"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Made a new store at"))
        #expect(made.stdout.contains(#""skipped":"#))
        let port = try #require(served.server.port)
        #expect(try served.remote(["remote", "add", "other", "--container", "iCloud.other", "--environment", "development",
                                   "--url", "http://127.0.0.1:\(port)"]).status == 0)
        let other = try served.remote(["pull", "other", "--to", pulled])
        #expect(other.status == 1)
        #expect(other.stderr.contains("was pulled from container iCloud.remote, not from remote 'other'"))
        let local = try served.remote(["pull", "served", "--to", served.cli.storePath])
        #expect(local.status == 1)
        #expect(local.stderr.contains("was not made by `stratus pull`"))
        // A pull already running into the store (here the test holds its lock) refuses a second.
        let lock = open(pulled + ".pull.lock", O_RDWR)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let second = try served.remote(["pull", "served", "--to", pulled])
        close(lock)
        #expect(second.status == 1)
        #expect(second.stderr.contains("another `stratus pull` into"))
        let postgres = try served.remote(["pull", "served", "--to", "postgres://localhost/pulled"])
        #expect(postgres.status == 2)
        #expect(postgres.stderr.contains("--to must be a store file"))
        // Without assets, what was skipped is said.
        let plain = try served.remote(["pull", "served", "--to", served.cli.folder.path("plain.sqlite"), "--no-assets"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("assets (--no-assets)"))
    }
}
