import Foundation
import StratusEngine
import StratusPostgres
import StratusSQLite
import StratusTestSupport
import Testing

/// `stratus store copy` through the built binary, SQLite to PostgreSQL and back to SQLite: a
/// store with zones, deletions, users, a share and subscriptions comes out the same on each
/// copy, table by table and as every command reads it, tokens taken before the copy play back
/// the same changes on the copies, and a write on a copy continues the history. A destination
/// that holds data, a missing source and a bad URL are refused, with the destination untouched.
@Suite(.serialized) struct StoreCopyTests {
    @Test func aStoreCopiedToPostgresAndBackIsTheSameStore() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let pg = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(pg) }
        let back = cli.directory.appendingPathComponent("back.sqlite").path
        let tokens = try Self.fill(cli)

        let there = try StratusBinary.run(["store", "copy", cli.storePath, pg], store: nil)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("Copied \(cli.storePath) to \(pg):"), "\(there.stdout)")
        let home = try StratusBinary.run(["store", "copy", pg, back], store: nil)
        #expect(home.status == 0, "\(home.stderr)")

        let original = try Self.views(of: cli.storePath, tokens: tokens)
        #expect(original.count > 15)
        for copy in [pg, back] {
            let copied = try Self.views(of: copy, tokens: tokens)
            for (name, view) in original {
                #expect(copied[name] == view, "\(name) differs on \(copy):\n\(view)\n---\n\(copied[name] ?? "nothing")")
            }
        }
        try Self.expectSameTables(cli.storePath, pg)
        try Self.expectSameTables(cli.storePath, back)

        // A write on a copy takes the next change after the last copied one.
        for copy in [pg, back] {
            let before = try StratusBinary.json(["token", "--zone", "Trips", "--user", "alice"], store: copy)["syncToken"] as? String
            let saved = try StratusBinary.json(["save", "--zone", "Trips", "--user", "alice"], store: copy,
                                               stdin: #"{"recordName": "stop-9", "recordType": "Stop", "fields": {"title": {"value": "Porto"}}}"#)
            let tag = ((saved["records"] as? [[String: Any]])?.first?["recordChangeTag"] as? String) ?? ""
            #expect(!tag.isEmpty && !original.values.contains { $0.contains(tag) }, "\(saved)")
            let after = try StratusBinary.json(["changes", "--zone", "Trips", "--user", "alice", "--since", try #require(before)], store: copy)
            #expect((after["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["stop-9"], "\(after)")
            #expect((after["syncToken"] as? String) != before)
        }
    }

    @Test func aDestinationWithDataAMissingSourceAndABadURLAreRefused() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: #"{"recordName": "n1", "recordType": "Note"}"#).status == 0)
        let other = cli.directory.appendingPathComponent("other.sqlite").path
        #expect(try StratusBinary.run(["zones", "create", "Kept"], store: other).status == 0)
        let kept = try Self.views(of: other, tokens: nil)

        let full = try StratusBinary.run(["store", "copy", cli.storePath, other], store: nil)
        #expect(full.status == 1)
        #expect(full.stderr.contains("The store at \(other) is not empty"), "\(full.stderr)")
        #expect(try Self.views(of: other, tokens: nil) == kept)

        let pg = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(pg) }
        #expect(try StratusBinary.run(["save", "--zone", "_defaultZone"], store: pg, stdin: #"{"recordName": "p1", "recordType": "Note"}"#).status == 0)
        let fullPostgres = try StratusBinary.run(["store", "copy", cli.storePath, pg], store: nil)
        #expect(fullPostgres.status == 1)
        #expect(fullPostgres.stderr.contains("The store at \(pg) is not empty"), "\(fullPostgres.stderr)")
        #expect(try StratusBinary.run(["fetch", "p1"], store: pg).status == 0)

        let missing = cli.directory.appendingPathComponent("missing.sqlite").path
        let made = cli.directory.appendingPathComponent("made.sqlite").path
        let noSource = try StratusBinary.run(["store", "copy", missing, made], store: nil)
        #expect(noSource.status == 1)
        #expect(noSource.stderr.contains("No store at \(missing)."), "\(noSource.stderr)")
        #expect(!FileManager.default.fileExists(atPath: made))

        let badURL = try StratusBinary.run(["store", "copy", cli.storePath, "postgres://127.0.0.1"], store: nil)
        #expect(badURL.status == 1)
        #expect(badURL.stderr.contains("postgres://127.0.0.1 is not a PostgreSQL store URL"), "\(badURL.stderr)")

        let same = try StratusBinary.run(["store", "copy", cli.storePath, cli.storePath], store: nil)
        #expect(same.status == 1)
        #expect(same.stderr.contains("name the same store"), "\(same.stderr)")
    }

    @Test func aPasswordInTheURLIsNeverPrinted() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let pg = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(pg) }
        let withPassword = pg.replacingOccurrences(of: "://postgres@", with: "://postgres:s3cret-word@")
        try #require(withPassword != pg, "the test server's URL names the user postgres: \(pg)")
        let copied = try StratusBinary.run(["store", "copy", cli.storePath, withPassword], store: nil)
        #expect(copied.status == 0, "\(copied.stderr)")
        let refused = try StratusBinary.run(["store", "copy", cli.storePath, withPassword], store: nil)
        #expect(refused.status == 1)
        for outcome in [copied, refused] {
            #expect(!outcome.stdout.contains("s3cret") && !outcome.stderr.contains("s3cret"), "\(outcome.stdout)\(outcome.stderr)")
        }
    }

    /// Tokens taken part way through the history, which the copies must play back alike.
    struct Tokens {
        var trips: String
        var library: String
        var aliceDatabase: String
    }

    /// A demo store with users, a shared zone with changes and a deletion after the tokens,
    /// subscriptions and a server credential.
    static func fill(_ cli: StratusCLI) throws -> Tokens {
        #expect(try cli.run(["demo", "--records", "200", "--no-ui"]).status == 0)
        for alias in ["alice", "bob"] { #expect(try cli.run(["users", "create", alias]).status == 0) }
        // A role and grants beside the demo's types, and a user who holds the role.
        let schema = cli.directory.appendingPathComponent("schema.ckdb")
        let exported = try cli.run(["schema", "export"]).stdout
        #expect(exported.hasPrefix("DEFINE SCHEMA\n"))
        try exported.replacingOccurrences(of: "DEFINE SCHEMA\n", with: #"""
            DEFINE SCHEMA
                CREATE ROLE Editor;
                RECORD TYPE Board ("___recordID" REFERENCE QUERYABLE, title STRING, GRANT READ TO "_world", GRANT CREATE, WRITE TO "Editor");

            """#).write(to: schema, atomically: true, encoding: .utf8)
        #expect(try cli.run(["schema", "import", schema.path]).status == 0)
        #expect(try cli.run(["users", "grant", "Editor", "bob"]).status == 0)
        #expect(try cli.run(["save", "--db", "public", "--user", "bob"],
                            stdin: #"{"recordName": "b1", "recordType": "Board", "fields": {"title": {"value": "hi", "type": "STRING"}}}"#).status == 0)
        #expect(try cli.run(["zones", "create", "Trips", "--user", "alice"]).status == 0)
        for record in [#"{"recordName": "trip-1", "recordType": "Trip", "fields": {"title": {"value": "Lisbon", "type": "STRING"}}}"#,
                       #"{"recordName": "stop-1", "recordType": "Stop", "parent": {"recordName": "trip-1"}, "fields": {"title": {"value": "Belém"}}}"#,
                       #"{"recordName": "stop-2", "recordType": "Stop", "parent": {"recordName": "trip-1"}, "fields": {"title": {"value": "Sintra"}}}"#] {
            #expect(try cli.run(["save", "--user", "alice", "--zone", "Trips"], stdin: record).status == 0)
        }
        let tokens = Tokens(trips: try token(cli, ["--zone", "Trips", "--user", "alice"]), library: try token(cli, ["--zone", "Library"]),
                            aliceDatabase: try token(cli, ["--database", "--user", "alice"]))
        let url = try cli.run(["share", "create", "--record", "trip-1", "--zone", "Trips", "--user", "alice"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(try cli.run(["share", "add", url, "--participant", "bob", "--permission", "read-write", "--user", "alice"]).status == 0)
        #expect(try cli.run(["share", "accept", url, "--user", "bob"]).status == 0)
        #expect(try cli.run(["save", "--user", "alice", "--zone", "Trips"],
                            stdin: #"{"recordName": "stop-3", "recordType": "Stop", "parent": {"recordName": "trip-1"}, "fields": {"n": {"value": 3}}}"#).status == 0)
        #expect(try cli.run(["delete", "stop-2", "--user", "alice", "--zone", "Trips"]).status == 0)
        #expect(try cli.run(["zones", "create", "Later", "--user", "alice"]).status == 0)
        let book = try #require(try cli.json(["query", "--zone", "Library", "--type", "Book", "--limit", "1"])["records"] as? [[String: Any]])
        #expect(try cli.run(["delete", try #require(book.first?["recordName"] as? String), "--zone", "Library"]).status == 0)
        #expect(try cli.run(["subscriptions", "create", "--type", "Stop", "--filter", "n > %@", "--arg", "int:1", "--id", "stops", "--user", "alice"]).status == 0)
        #expect(try cli.run(["subscriptions", "create", "--kind", "zone", "--zone", "Trips", "--id", "trips", "--user", "alice"]).status == 0)
        #expect(try cli.run(["save", "--user", "alice", "--zone", "Trips"],
                            stdin: #"{"recordName": "stop-4", "recordType": "Stop", "fields": {"n": {"value": 4}}}"#).status == 0)
        #expect(try cli.run(["auth", "api-token", "--container", "iCloud.copy"]).status == 0)
        // A fault for the dashboard only, so the commands that read the copies never meet it.
        #expect(try cli.run(["faults", "add", "zoneBusy", "--zone", "Trips", "--probability", "0.25", "--seed", "7", "--retry-after", "2.5",
                             "--client", "dashboard"]).status == 0)
        return tokens
    }

    static func token(_ cli: StratusCLI, _ arguments: [String]) throws -> String {
        try #require(try cli.json(["token"] + arguments)["syncToken"] as? String)
    }

    /// What commands print about the store at `location`, by command: records with their
    /// system fields, playback from each token and from none, zones, users, shares,
    /// subscriptions, notifications and queries that use the index rows the copy rebuilt.
    static func views(of location: String, tokens: Tokens?) throws -> [String: String] {
        if tokens == nil { return ["zones": try StratusBinary.run(["zones", "--json"], store: location).stdout,
                                   "export": try StratusBinary.run(["export"], store: location).stdout] }
        var commands: [[String]] = [
            ["export", "--zone", "Library"], ["export", "--zone", "Trips", "--user", "alice"], ["export", "--db", "public"],
            ["zones", "--json"], ["zones", "--user", "alice", "--json"], ["users", "--json"], ["schema", "export"],
            ["query", "--type", "Board", "--db", "public", "--user", "none", "--json"], ["faults", "list", "--json"], ["share", "list", "--user", "alice", "--json"],
            ["share", "list", "--user", "bob", "--json"], ["subscriptions", "--user", "alice", "--json"], ["notifications", "--user", "alice", "--json"],
            ["changes", "--zone", "Trips", "--user", "alice", "--json"], ["changes", "--zone", "Library", "--json"],
            ["changes", "--database", "--db", "shared", "--user", "bob", "--json"], ["changes", "--database", "--user", "alice", "--json"],
            ["token", "--zone", "Trips", "--user", "alice", "--json"], ["token", "--database", "--json"],
            ["query", "--zone", "Library", "--type", "Book", "--sort=-title", "--limit", "20", "--json"],
            ["query", "--zone", "Trips", "--user", "alice", "--type", "Stop", "--filter", "n > %@", "--arg", "int:2", "--json"],
            ["query", "--zone", "Trips", "--user", "alice", "--type", "Stop", "--filter", #"self CONTAINS "belém""#, "--json"],
        ]
        if let tokens {
            commands += [["changes", "--zone", "Trips", "--user", "alice", "--since", tokens.trips, "--json"],
                         ["changes", "--zone", "Library", "--since", tokens.library, "--json"],
                         ["changes", "--database", "--user", "alice", "--since", tokens.aliceDatabase, "--json"]]
        }
        var views: [String: String] = [:]
        for command in commands {
            let outcome = try StratusBinary.run(command, store: location)
            if tokens != nil {
                #expect(outcome.status == 0 && !outcome.stdout.isEmpty, "stratus \(command.joined(separator: " ")): \(outcome.stderr)")
            }
            // A query's cursor carries the time the query ran, which differs from run to run.
            let stdout = outcome.stdout.replacingOccurrences(of: #""continuationMarker":"[^"]*""#, with: "", options: .regularExpression)
            views[command.joined(separator: " ")] = "exit \(outcome.status)\n\(stdout)\(outcome.stderr)"
        }
        return views
    }

    /// Every copied table of the two stores, row by row, as the copy reads them.
    static func expectSameTables(_ first: String, _ second: String) throws {
        let (a, b) = (try rows(first), try rows(second))
        for table in CopiedTable.allCases {
            #expect(a[table] == b[table], "\(table.rawValue) differs between \(first) and \(second)")
            #expect(table == .serverKey || table == .pushToken || table == .faultEvent || table == .requestLog
                || table == .requestBody || table == .notification || table == .asset
                || !(a[table] ?? []).isEmpty, "the store has no \(table.rawValue) rows to compare")
        }
    }

    static func rows(_ location: String) throws -> [CopiedTable: [[CopiedValue]]] {
        try (location.hasPrefix("postgres://") ? Store.postgres(location, creating: false) : Store(path: location)).copiedRows()
    }
}
