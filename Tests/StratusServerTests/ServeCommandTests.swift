import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `stratus serve` as a user runs it: the real binary on a free loopback port, credentials from
/// `stratus auth`, and SIGTERM stopping it cleanly.
@Suite(.serialized) struct ServeCommandTests {
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("stratus")
    }

    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func servesOnAFreePortAndStopsOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        let (tokenStatus, token, _) = try run(["auth", "api-token", "--store", store, "--container", "iCloud.e2e"])
        #expect(tokenStatus == 0)
        #expect(token.trimmingCharacters(in: .newlines).range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil)
        let (_, login, _) = try run(["auth", "login", "--store", store])
        let apiToken = token.trimmingCharacters(in: .whitespacesAndNewlines)
        let webToken = login.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(["zones", "create", "Notes", "--store", store]).0 == 0)

        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--store", store, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first line says where it listens.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix("Serving CloudKit Web Services at http://127.0.0.1:"))
        let port = try #require(text.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) })

        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.e2e/development/private/records/modify?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "from HTTP"}}}}]}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")

        var unauthenticated = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.e2e/development/private/zones/list?ckAPIToken=\(apiToken)")!)
        unauthenticated.httpMethod = "GET"
        _ = try await URLSession.shared.data(for: unauthenticated)

        process.terminate()  // SIGTERM
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
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
