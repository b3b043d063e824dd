import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusTestSupport
import Testing

/// The built `stratus` on a `postgres://` store: the command line refuses a store that is not
/// there and makes it where a file store would be made; saves, token search, change playback
/// and `stratus serve` then work on it as on a file, and a second process sees what the first
/// wrote.
@Suite struct PostgresStoreEndToEndTests {
    @Test func theCommandLineAndTheServerWorkOnAPostgresStore() async throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }

        let missing = try StratusBinary.run(["zones"], store: url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: badDatabase (24): No store at \(url)."), "\(missing.stderr)")

        let made = try StratusBinary.run(["zones", "create", "Notes"], store: url)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Made a new store at \(url)."), "\(made.stderr)")
        let record = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "Lunch in Tokyo"}}}"#
        let saved = try StratusBinary.run(["save", "--zone", "Notes"], store: url, stdin: record)
        #expect(saved.status == 0, "\(saved.stderr)")

        let found = try StratusBinary.json(["query", "--zone", "Notes", "--type", "Note", "--filter", #"self CONTAINS "tokyo""#], store: url)
        #expect((found["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n1"])
        let changes = try StratusBinary.json(["changes", "--zone", "Notes"], store: url)
        #expect((changes["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n1"])

        let container = "iCloud.team"
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", container], store: url).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = try StratusBinary.run(["auth", "login", "--container", container], store: url).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServedStore(store: url)
        defer { server.stop() }
        let port = try #require(server.port, "serve printed: \(server.firstLine)")
        let query = "ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? webToken)"
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/database/1/\(container)/development/private/records/modify?\(query)")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"operations": [{"operationType": "create", "record": {"recordName": "n2", "recordType": "Note", "fields": {"title": {"value": "Dinner in Osaka"}}}}]}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")

        let after = try StratusBinary.json(["query", "--type", "Note", "--filter", #"self CONTAINS "osaka""#], store: url)
        #expect((after["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n2"])
    }

    /// `notifications --follow` on PostgreSQL waits on LISTEN/NOTIFY: another process's save
    /// reaches it, and a stop signal ends it cleanly.
    @Test func notificationsFollowSeesAnotherProcessesSave() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let seed = #"{"recordName": "seed", "recordType": "Item", "fields": {"name": {"value": "seed"}}}"#
        #expect(try StratusBinary.run(["save"], store: url, stdin: seed).status == 0)
        #expect(try StratusBinary.run(["subscriptions", "create", "--type", "Item", "--on", "create", "--id", "live", "--keys", "name"], store: url).status == 0)

        let follower = StratusBinary.process(["notifications", "--follow", "--json", "--device", "dashboard"], store: url)
        let output = Pipe()
        follower.standardOutput = output
        follower.standardError = FileHandle.nullDevice
        try follower.run()
        defer { if follower.isRunning { follower.terminate() } }
        let lines = LineCollector(output.fileHandleForReading)
        Thread.sleep(forTimeInterval: 1)   // let it start and listen

        let record = #"{"recordName": "live-1", "recordType": "Item", "fields": {"name": {"value": "こんにちは"}}}"#
        #expect(try StratusBinary.run(["save"], store: url, stdin: record).status == 0)
        // A hang guard, not a speed target.
        let line = try #require(lines.next(timeout: 60), "no notification within a minute")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["recordName"] as? String == "live-1")
        #expect(((object["fields"] as? [String: Any])?["name"] as? [String: Any])?["value"] as? String == "こんにちは")

        follower.terminate()
        follower.waitUntilExit()
        #expect(follower.terminationStatus == 0)
    }
}
