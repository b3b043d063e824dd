import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusTestSupport
import Testing

/// `stratus serve` as a user runs it: the real binary on a free loopback port, credentials from
/// `stratus auth`, and SIGTERM stopping it cleanly.
@Suite(.serialized) struct ServeCommandTests {
    /// Runs `stratus ARGS` as given: status, standard output, standard error.
    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let outcome = try StratusBinary.run(arguments, environment: [:])
        return (outcome.status, outcome.stdout, outcome.stderr)
    }

    @Test func servesOnAFreePortAndStopsOnSIGTERM() async throws {
        let folder = try TemporaryDirectory("stratus-serve")
        defer { folder.remove() }
        let store = folder.storePath
        let (tokenStatus, token, _) = try run(["auth", "api-token", "--store", store, "--container", "iCloud.e2e"])
        #expect(tokenStatus == 0)
        #expect(token.trimmingCharacters(in: .newlines).range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil)
        let (_, login, _) = try run(["auth", "login", "--store", store])
        let apiToken = token.trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = login.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(["zones", "create", "Notes", "--store", store]).0 == 0)

        let server = try ServedStore(store: store)
        defer { server.stop() }
        let process = server.process
        // The first line says where it listens.
        let text = server.firstLine
        #expect(text.hasPrefix("Serving CloudKit Web Services at http://127.0.0.1:"))
        let port = try #require(server.port)

        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.e2e/development/private/records/modify?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "from HTTP"}}}}]}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")

        var unauthenticated = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.e2e/development/private/zones/list?ckAPIToken=\(apiToken)")!)
        unauthenticated.httpMethod = "GET"
        _ = try await URLSession.shared.data(for: unauthenticated)

        process.terminate()  // SIGTERM
        _ = try await Poll.asyncUntil(timeout: .seconds(10), every: .milliseconds(50)) { !process.isRunning }
        #expect(!process.isRunning, "serve did not stop on SIGTERM")
        #expect(process.terminationStatus == 0)
        // What was saved over HTTP is in the store, and the command line sees it.
        let (status, fetched, _) = try run(["fetch", "n1", "--zone", "Notes", "--store", store, "--json"])
        #expect(status == 0)
        #expect(fetched.contains("from HTTP"))
        // Both requests are in the log, written before the server stopped.
        let (logStatus, log, _) = try run(["logs", "--store", store, "--json"])
        #expect(logStatus == 0)
        let entries = log.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.map { $0["endpoint"] as? String } == ["records/modify", "zones/list"])
        #expect(entries.map { $0["status"] as? Int } == [200, 421])
        #expect(entries.first?["user"] as? String != nil)
        #expect(entries.first?["detail"] as? String == "saved n1", "what the request saved")
        #expect(entries.last?["user"] is NSNull)
        #expect((entries.last?["error"] as? String)?.hasPrefix("AUTHENTICATION_REQUIRED") == true)
        let (_, logLine, _) = try run(["logs", "--store", store, "--limit", "1"])
        #expect(logLine.contains("  421  ") && logLine.contains("private  zones/list  iCloud.e2e  AUTHENTICATION_REQUIRED"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try run(["serve", "--store", "a", "--stores", "b"]).0 == 2)
        #expect(try run(["serve", "--port", "70000"]).0 == 2)
        #expect(try run(["auth", "api-token", "--stores", "/tmp/x"]).0 == 2)
    }
}
