import Foundation
import StratusTestSupport
import Testing

/// A PostgreSQL streaming replica (hot standby) of a team's database: the command line and
/// `stratus serve` read from it (queries, lookups, change playback from a token taken on the
/// primary) and refuse every write with a message that says to write through the primary.
/// And a backup with `pg_dump`, restored into another database, is the same store.
@Suite(.serialized) struct ReplicaTests {
    static let container = "iCloud.replica"

    @Test func aStandbyServesReadsAndRefusesWritesByName() async throws {
        let primary = try TestPostgres.Cluster.start()
        defer { primary.stop() }
        let store = primary.url + "?schema=team"
        func save(_ name: String, _ title: String, on store: String) throws -> ProcessOutcome {
            try StratusBinary.run(["save", "--zone", "Notes"], store: store,
                                  stdin: #"{"recordName": "\#(name)", "recordType": "Note", "fields": {"title": {"value": "\#(title)"}}}"#)
        }
        try #require(StratusBinary.run(["zones", "create", "Notes"], store: store).status == 0)
        try #require(save("n1", "Lunch in Tokyo", on: store).status == 0)
        let token = try #require(try StratusBinary.json(["token", "--zone", "Notes"], store: store)["syncToken"] as? String)
        try #require(save("n2", "Dinner in Osaka", on: store).status == 0)
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", Self.container], store: store).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = try StratusBinary.run(["auth", "login", "--container", Self.container], store: store).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // A session from the primary's sign-in page, which a replica's answers cannot replace.
        let http = LoopbackHTTP()
        defer { Task { await http.shutdown() } }
        let primaryServer = try ServedStore(store: store)
        let signIn = try await http.send("http://127.0.0.1:\(try #require(primaryServer.port))/signin?container=\(Self.container)&environment=development",
                                         body: "", method: .POST)
        primaryServer.stop()
        let session = try #require(signIn.text.components(separatedBy: "<pre id=\"token\">").last?.components(separatedBy: "</pre>").first)

        let standby = try primary.standby()
        defer { standby.stop() }
        let replica = standby.url + "?schema=team"
        // A write on the primary after the copy reaches the replica by streaming.
        try #require(save("n3", "Breakfast in Kyoto", on: store).status == 0)
        let streamed = try Poll.until(timeout: .seconds(60), every: .milliseconds(100)) {
            try StratusBinary.run(["fetch", "n3", "--zone", "Notes"], store: replica).status == 0
        }
        #expect(streamed, "n3 never reached the replica")

        // The command line reads from the replica.
        let found = try StratusBinary.json(["query", "--zone", "Notes", "--type", "Note", "--filter", #"self CONTAINS "tokyo""#], store: replica)
        #expect((found["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n1"])
        let changes = try StratusBinary.json(["changes", "--zone", "Notes", "--since", token], store: replica)
        #expect((changes["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n2", "n3"])
        // ... and refuses to write, saying where to.
        let refused = try save("n4", "Supper in Nara", on: replica)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is on a PostgreSQL standby (a read-only replica): it can be read, and nothing was written. Write through the primary server's URL."),
                "\(refused.stderr)")

        // `stratus serve` on the replica answers reads, and writes with the same refusal.
        let server = try ServedStore(store: replica, arguments: ["--token-rotation", "0"])
        defer { server.stop() }
        let port = try #require(server.port, "serve printed: \(server.firstLine)")
        let base = "http://127.0.0.1:\(port)/database/1/\(Self.container)/development/private"
        let credentials = "?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? webToken)"
        #expect(try await http.send("http://127.0.0.1:\(port)/health").status == 200)
        let played = try await http.send(base + "/changes/zone" + credentials,
                                         body: #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "\#(token)"}]}"#)
        #expect(played.status == 200, "\(played.text.prefix(400))")
        #expect((played.zones.first?["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n2", "n3"])
        let looked = try await http.send(base + "/records/lookup" + credentials, body: #"{"zoneID": {"zoneName": "Notes"}, "records": [{"recordName": "n1"}]}"#)
        #expect(looked.records.first?["recordChangeTag"] != nil, "\(looked.text.prefix(400))")
        let written = try await http.send(base + "/records/modify" + credentials,
                                          body: #"{"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n5", "recordType": "Note", "fields": {}}}]}"#)
        #expect(written.status < 500, "\(written.text.prefix(400))")
        #expect(written.text.contains("PostgreSQL standby"), "\(written.text.prefix(400))")
        // A signed-in session keeps working: the answer hands its token back unchanged.
        let asSession = try await http.send(base + "/users/current?ckAPIToken=\(apiToken)&ckWebAuthToken=\(session)", body: "{}")
        #expect(asSession.status == 200, "\(asSession.text.prefix(400))")
        #expect(asSession.headers["x-apple-cloudkit-web-auth-token"] == session)
    }

    @Test func aStoreDumpedWithPgDumpAndRestoredPlaysBackTokensTakenBefore() throws {
        let cluster = try TestPostgres.Cluster.start()
        defer { cluster.stop() }
        let store = cluster.url + "?schema=team"
        try #require(StratusBinary.run(["zones", "create", "Notes"], store: store).status == 0)
        let token = try #require(try StratusBinary.json(["token", "--zone", "Notes"], store: store)["syncToken"] as? String)
        let record = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "Lunch in Tokyo"}}}"#
        try #require(StratusBinary.run(["save", "--zone", "Notes"], store: store, stdin: record).status == 0)

        let bin = try String(contentsOfFile: cluster.folder + "/bin", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try #require(URLComponents(string: cluster.url))
        let connection = ["-h", "127.0.0.1", "-p", String(server.port ?? 5432), "-U", "postgres"]
        let dump = cluster.folder + "/team.dump"
        let dumped = try ProcessRunner.run(URL(fileURLWithPath: bin + "/pg_dump"), connection + ["-n", "team", "-Fc", "-f", dump, "stratus_test"])
        try #require(dumped.status == 0, "\(dumped.stderr)")
        try #require(ProcessRunner.run(URL(fileURLWithPath: bin + "/createdb"), connection + ["restored"]).status == 0)
        let restored = try ProcessRunner.run(URL(fileURLWithPath: bin + "/pg_restore"), connection + ["-d", "restored", dump])
        try #require(restored.status == 0, "\(restored.stderr)")

        let copy = cluster.url.replacingOccurrences(of: "/stratus_test", with: "/restored") + "?schema=team"
        let changes = try StratusBinary.json(["changes", "--zone", "Notes", "--since", token], store: copy)
        #expect((changes["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n1"])
        let found = try StratusBinary.json(["query", "--zone", "Notes", "--type", "Note", "--filter", #"self CONTAINS "tokyo""#], store: copy)
        #expect((found["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n1"])
    }

    /// A standby copied while its primary's store was still on format 2 (before PostgreSQL's own
    /// query indexes) cannot upgrade it: it answers queries from the zone's records instead, the
    /// same answers, until the primary is opened and its upgrade streams to the standby.
    @Test func aStandbyOfAStoreOnTheFormatBeforeTheQueryIndexesAnswersQueries() throws {
        let primary = try TestPostgres.Cluster.start()
        defer { primary.stop() }
        let store = primary.url + "?schema=team"
        try #require(StratusBinary.run(["zones", "create", "Notes"], store: store).status == 0)
        let notes = [("n1", "Lunch in Tokyo", 3), ("n2", "Dinner in Osaka", 1), ("n3", "Lunch in Kyoto", 2)]
        let lines = notes.map { #"{"recordName": "\#($0.0)", "recordType": "Note", "fields": {"title": {"value": "\#($0.1)"}, "rank": {"value": \#($0.2)}}}"# }
        try #require(StratusBinary.run(["save", "--zone", "Notes"], store: store, stdin: lines.joined(separator: "\n")).status == 0)
        // As format 2 left a store: no field index.
        let bin = try String(contentsOfFile: primary.folder + "/bin", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let port = String(try #require(URLComponents(string: primary.url)?.port))
        let psql = try ProcessRunner.run(URL(fileURLWithPath: bin + "/psql"), ["-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", "stratus_test", "-v", "ON_ERROR_STOP=1", "-c",
            "SET search_path TO team; DROP TABLE field_value; DROP INDEX record_by_created; UPDATE store_info SET format_version = 2;"])
        try #require(psql.status == 0, "\(psql.stderr)")

        let standby = try primary.standby()
        defer { standby.stop() }
        let replica = standby.url + "?schema=team"
        let query = ["query", "--zone", "Notes", "--type", "Note", "--filter", #"title BEGINSWITH "Lunch""#, "--sort", "rank"]
        func names(_ store: String) throws -> [String] {
            let answer = try StratusBinary.run(query + ["--json"], store: store)
            #expect(answer.status == 0, "\(answer.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
            return (json?["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } ?? []
        }
        #expect(try names(replica) == ["n3", "n1"], "the standby answers from the zone's records")

        // The primary upgrades when it is opened; the standby reads the new index once it has it.
        #expect(try names(store) == ["n3", "n1"])
        let upgraded = try Poll.until(timeout: .seconds(60), every: .milliseconds(100)) {
            let check = try ProcessRunner.run(URL(fileURLWithPath: bin + "/psql"), ["-h", "127.0.0.1", "-p", String(try #require(URLComponents(string: standby.url)?.port)),
                                                                                   "-U", "postgres", "-d", "stratus_test", "-tAc", "SELECT format_version FROM team.store_info"])
            return check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3"
        }
        #expect(upgraded, "the upgrade never reached the standby")
        #expect(try names(replica) == ["n3", "n1"])
    }
}
