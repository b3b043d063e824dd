import Foundation
import Testing

@Suite(.serialized) struct CommandLineTests {
    @Test func saveFetchConflictAndDelete() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let input = """
            {"recordName": "a", "recordType": "Note", "fields": {"title": {"value": "東京 🗼", "type": "STRING"}, "n": {"value": 9007199254740993}}}
            {"recordName": "b", "recordType": "Note", "fields": {"up": {"value": {"recordName": "a", "action": "DELETE_SELF"}, "type": "REFERENCE"}}}
            """
        let saved = try cli.json(["save", "--zone", "Notes"], stdin: input)
        let records = try #require(saved["records"] as? [[String: Any]])
        #expect(records.count == 2)
        let tag = try #require(records[0]["recordChangeTag"] as? String)

        let fetched = try cli.run(["fetch", "--zone", "Notes", "a", "--json"])
        #expect(fetched.status == 0)
        #expect(fetched.stdout.contains("\"value\":9007199254740993"))
        #expect(fetched.stdout.contains("東京 🗼"))

        let update = #"{"recordName": "a", "recordType": "Note", "recordChangeTag": "\#(tag)", "fields": {"n": {"value": 1}}}"#
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: update).status == 0)
        let conflict = try cli.run(["save", "--zone", "Notes"], stdin: update)
        #expect(conflict.status == 1)
        #expect(conflict.stderr.contains("serverRecordChanged (14)"))
        let conflictJSON = try cli.run(["save", "--zone", "Notes", "--json"], stdin: update)
        #expect(conflictJSON.stdout.contains("\"serverErrorCode\":\"CONFLICT\""))
        #expect(conflictJSON.stdout.contains("\"serverRecord\""))

        let deleted = try cli.run(["delete", "--zone", "Notes", "a"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout.contains("deleted b (it pointed at a deleted record with DELETE_SELF)"))
        let missing = try cli.run(["fetch", "--zone", "Notes", "a", "b", "--json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("\"serverErrorCode\":\"NOT_FOUND\""))
    }

    /// A command closes the store as it ends, whether it succeeded or failed: SQLite folds the
    /// write-ahead log into the file and removes it, so the next process does not read it all
    /// again on opening (half a second after a million-record demo).
    @Test func aCommandLeavesNoWriteAheadLogBehind() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let log = cli.storePath + "-wal"
        let saved = try cli.run(["save"], stdin: #"{"recordName": "a", "recordType": "Note", "fields": {"n": {"value": 1}}}"#)
        #expect(saved.status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.storePath))
        #expect(!FileManager.default.fileExists(atPath: log))
        let missing = try cli.run(["fetch", "missing"])
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(try cli.run(["fetch", "a"]).stdout.contains("a"))
    }

    @Test func tokensPagingAndExpiry() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.run(["zones", "create", "Feed"])
        let lines = (0..<5).map { #"{"recordName": "r\#($0)", "recordType": "Item", "fields": {"i": {"value": \#($0)}}}"# }
        try cli.run(["save", "--zone", "Feed"], stdin: lines.joined(separator: "\n"))
        let page = try cli.json(["changes", "--zone", "Feed", "--limit", "2"])
        #expect((page["records"] as? [Any])?.count == 2)
        #expect(page["moreComing"] as? Bool == true)
        let token = try #require(page["syncToken"] as? String)
        let rest = try cli.json(["changes", "--zone", "Feed", "--since", token])
        #expect(((rest["records"] as? [[String: Any]]) ?? []).compactMap { $0["recordName"] as? String } == ["r2", "r3", "r4"])
        #expect(rest["moreComing"] as? Bool == false)

        let now = try #require(try cli.json(["token", "--zone", "Feed"])["syncToken"] as? String)
        #expect(now == rest["syncToken"] as? String)
        try cli.run(["save", "--zone", "Feed"], stdin: #"{"recordName": "late", "recordType": "Item"}"#)
        try cli.run(["delete", "--zone", "Feed", "r0"])
        let later = try cli.json(["changes", "--zone", "Feed", "--since", now])
        let events = (later["records"] as? [[String: Any]]) ?? []
        #expect(events.count == 2)
        #expect(events.last?["deleted"] as? Bool == true)
        #expect(events.last?["recordType"] as? String == "Item")

        let damaged = try cli.run(["changes", "--zone", "Feed", "--since", "AAAA" + now.dropFirst(4)])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains("invalidArguments (12)"))

        let databaseToken = try #require(try cli.json(["token", "--database"])["syncToken"] as? String)
        try cli.run(["zones", "delete", "Feed"])
        try cli.run(["zones", "create", "Feed"])
        let expired = try cli.run(["changes", "--zone", "Feed", "--since", now])
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("changeTokenExpired (21)"))
        let zoneChanges = try cli.json(["changes", "--database", "--since", databaseToken])
        let zones = (zoneChanges["zones"] as? [[String: Any]]) ?? []
        #expect(zones.contains { $0["zoneName"] as? String == "Feed" && $0["change"] as? String == "changed" })

        let other = try StratusCLI()
        defer { other.remove() }
        try other.run(["zones", "create", "Feed"])
        let foreign = try other.run(["changes", "--zone", "Feed", "--since", now])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("another store"))
    }

    @Test func zoneDeletionShowsInDatabaseChanges() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.run(["zones", "create", "Gone", "Kept"])
        let token = try #require(try cli.json(["token", "--database"])["syncToken"] as? String)
        try cli.run(["zones", "delete", "Gone"])
        let changes = try cli.json(["changes", "--database", "--since", token])
        let zones = (changes["zones"] as? [[String: Any]]) ?? []
        #expect(zones.count == 1)
        #expect(zones.first?["zoneName"] as? String == "Gone")
        #expect(zones.first?["change"] as? String == "deleted")
    }

    @Test func badUsageExitsTwoAndErrorsNameTheProblem() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let badDB = try cli.run(["zones", "--db", "nowhere"])
        #expect(badDB.status == 2)
        #expect(badDB.stderr.contains("--db must be public, private or shared"))
        #expect(try cli.run(["frobnicate"]).status == 2)
        #expect(try cli.run(["changes", "--limit", "0"]).status == 2)
        let malformed = try cli.run(["save"], stdin: "{\"recordName\": \"x\",\n \"recordType\": }")
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("line 2, column 16"))
        let publicZone = try cli.run(["zones", "create", "Nope", "--db", "public"])
        #expect(publicZone.status == 1)
        #expect(publicZone.stderr.contains("private database"))
        let notAStore = cli.directory.appendingPathComponent("text.txt")
        try Data("hello".utf8).write(to: notAStore)
        let foreign = try cli.run(["zones", "--store", notAStore.path], store: false)
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("badDatabase (24)"))
    }

    @Test func demoMakesAStoreWithHistory() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let made = try cli.run(["demo", "--no-ui", "--records", "300"])
        #expect(made.status == 0)
        #expect(made.stdout.contains("Demo store:"))
        let zones = try cli.json(["zones"])
        let names = ((zones["zones"] as? [[String: Any]]) ?? []).compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String }
        #expect(Set(names).isSuperset(of: ["_defaultZone", "Travel", "People", "Library"]))
        let history = try cli.json(["changes", "--zone", "Travel", "--no-keys"])
        let events = (history["records"] as? [[String: Any]]) ?? []
        #expect(events.contains { $0["deleted"] as? Bool == true })
        #expect(events.count > 100)
        #expect(try cli.run(["demo", "--no-ui"]).stderr.contains("Using the demo store"))
    }
}

@Suite(.serialized) struct CommandLineOptionTests {
    @Test func userEnvironmentAndAssets() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "--environment", "production"]).status == 0)
        let refused = try cli.run(["save"], stdin: #"{"recordName": "x", "recordType": "Thing"}"#)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("production"))
        let other = try StratusCLI()
        defer { other.remove() }
        let file = other.directory.appendingPathComponent("photo.bin")
        try Data("asset bytes 🖼️".utf8).write(to: file)
        let input = #"{"recordName": "p", "recordType": "Photo", "fields": {"image": {"value": {"file": "\#(file.path)"}, "type": "ASSET"}}}"#
        let alice = try other.json(["users", "create", "alice"])
        let aliceName = try #require(alice["userRecordName"] as? String)
        #expect(try other.run(["save", "--user", "alice"], stdin: input).status == 0)
        let fetched = try other.json(["fetch", "p", "--user", "alice"])
        let record = try #require((fetched["records"] as? [[String: Any]])?.first)
        #expect((record["created"] as? [String: Any])?["userRecordName"] as? String == aliceName)
        // Alice's private database is hers: the owner's has no record p.
        let owners = try other.run(["fetch", "p"])
        #expect(owners.status != 0)
        #expect(owners.stderr.contains("unknownItem"))
        let out = other.directory.appendingPathComponent("out")
        #expect(try other.run(["fetch", "p", "--user", "alice", "--assets", out.path]).status == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written.count == 1)
        #expect(FileManager.default.contents(atPath: out.appendingPathComponent(written[0]).path) == Data("asset bytes 🖼️".utf8))
    }
}
