import Foundation
import StratusEngine
import Testing
import StratusCloud

/// The server keeps the bodies of its newest requests beside their log entries, indented and
/// with every credential masked, for the dashboard's Logs tab.
@Suite struct RequestBodyLogTests {
    /// The newest logged entry of `endpoint` once the logger has flushed it (it flushes a few
    /// times a second; the wait only guards against a hang).
    static func logged(_ endpoint: String, in server: ServerHarness) async throws -> RequestLogEntry {
        for _ in 0..<300 {
            if let entry = try server.store.requestLog(limit: 50).last(where: { $0.endpoint == endpoint }) { return entry }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(endpoint) was never logged"])
    }

    @Test func aRequestAndItsAnswerAreKept() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let reply = try await server.call("private", "records/modify", #"""
            {"operations": [{"operationType": "create", "record": {"recordName": "tokyo-1", "recordType": "Note", "fields": {"title": {"value": "Paris 🥐"}}}}]}
            """#)
        #expect(reply.status == 200)
        let entry = try await Self.logged("records/modify", in: server)
        #expect(entry.bodies == nil, "the log's entries come without their bodies")
        let bodies = try #require(try server.store.requestBodies(of: entry.id))
        #expect(bodies.request.contains("\"recordName\": \"tokyo-1\""), "indented JSON: \(bodies.request)")
        #expect(bodies.response.contains("\"recordChangeTag\""))
        #expect(bodies.response.contains("Paris 🥐"))
    }

    @Test func aRefusedRequestKeepsWhatWasSentAndTheError() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        #expect(try await server.call("private", "records/query", #"{"query": {"filterBy": "東京"}}"#).status == 400)
        let entry = try await Self.logged("records/query", in: server)
        let bodies = try #require(try server.store.requestBodies(of: entry.id))
        #expect(bodies.request.contains("\"filterBy\": \"東京\""))
        #expect(bodies.response.contains("\"serverErrorCode\": \"BAD_REQUEST\""))
    }

    @Test func credentialsAreMaskedBeforeTheyReachTheStore() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let tokensBase = "http://127.0.0.1:\(server.port)/device/1/\(ServerHarness.container)/development/tokens"
        let query = "?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        let created = try await server.send(tokensBase + "/create" + query, body: #"{"apnsEnvironment": "development"}"#, method: "POST")
        let token = try #require(created["apnsToken"] as? String)
        let courier = try #require(created["webcourierURL"] as? String)
        _ = try await server.send(tokensBase + "/register" + query, body: #"{"apnsEnvironment": "development", "apnsToken": "\#(token)"}"#, method: "POST")
        let upload = try await server.call("private", "assets/upload", #"{"tokens": [{"recordName": "photo-1", "recordType": "Photo", "fieldName": "image"}]}"#)
        let uploadURL = try #require((upload["tokens"] as? [[String: Any]])?.first?["url"] as? String)

        let create = try #require(try server.store.requestBodies(of: try await Self.logged("tokens/create", in: server).id))
        #expect(create.response.contains("\"apnsToken\": \"••••\""))
        #expect(create.response.contains("/push/\(ServerHarness.container)/development/••••"))
        let register = try #require(try server.store.requestBodies(of: try await Self.logged("tokens/register", in: server).id))
        #expect(register.request.contains("\"apnsToken\": \"••••\""))
        let assets = try #require(try server.store.requestBodies(of: try await Self.logged("assets/upload", in: server).id))
        #expect(assets.response.contains("/assets/upload/••••"))
        let ticket = try #require(uploadURL.split(separator: "/").last.map(String.init))
        let escapedToken = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        for secret in [token, escapedToken, ticket, server.webAuthToken, server.apiToken, courier] {
            for text in [create.request, create.response, register.request, register.response, assets.request, assets.response] {
                #expect(!text.contains(secret), "a credential reached the store: \(text)")
            }
        }
    }
}
