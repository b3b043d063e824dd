import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusEngine
import Testing

@Suite struct AuthenticationTests {
    @Test func everyRequestNeedsAnAPITokenOfTheContainer() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let none = try await server.call("public", "zones/list", apiToken: .some(nil), webAuthToken: .some(nil))
        #expect(none.status == 401)
        #expect(none.code == "AUTHENTICATION_FAILED")
        #expect((none["reason"] as? String)?.hasPrefix("no auth method found") == true)
        #expect((none["uuid"] as? String)?.count == 36)
        let wrong = try await server.call("public", "zones/list", apiToken: .some(String(repeating: "0", count: 64)))
        #expect(wrong.status == 401)
        let otherContainer = try await server.call("public", "zones/list",
                                                   base: "http://127.0.0.1:\(server.port)/database/1/iCloud.other/development")
        #expect(otherContainer.status == 401)
        #expect(try await server.call("public", "zones/list").status == 200)
    }

    /// A web client gets what iCloud answers; how to make a token is the command line's advice.
    @Test func aMissingAPITokenIsAnsweredInCloudKitsWords() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let none = try await server.call("private", "records/query", #"{"query": {"recordType": "Note"}}"#, apiToken: .some(nil))
        #expect(none.status == 401)
        #expect(none.code == "AUTHENTICATION_FAILED")
        #expect(none["reason"] as? String == "no auth method found")
    }

    @Test func thePrivateDatabaseAndWritesNeedASignedInUser() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let anonymous = try await server.call("private", "zones/list", webAuthToken: .some(nil))
        #expect(anonymous.status == 421)
        #expect(anonymous.code == "AUTHENTICATION_REQUIRED")
        let redirect = try #require(anonymous["redirectURL"] as? String)
        #expect(redirect == "http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development")
        // The public database reads as the world, but writing needs a user.
        #expect(try await server.call("public", "records/query", #"{"query": {"recordType": "Users"}}"#, webAuthToken: .some(nil)).code != "AUTHENTICATION_REQUIRED")
        let write = try await server.call("public", "records/modify", #"{"operations": []}"#, webAuthToken: .some(nil))
        #expect(write.status == 421)
        let badSession = try await server.call("private", "zones/list", webAuthToken: .some("158__54__nope"))
        #expect(badSession.status == 421)
        let signedIn = try await server.call("private", "zones/list")
        #expect(signedIn.status == 200)
        #expect(signedIn.headers["x-apple-cloudkit-web-auth-token"] == server.webAuthToken)
        #expect(signedIn.headers["x-apple-request-uuid"]?.count == 36)
    }

    @Test func theSignInPageHandsATokenToTheCallback() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let signin = "http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development"
        let form = try await server.send(signin, body: nil, method: "GET")
        #expect(form.status == 200)
        #expect((form["_text"] as? String)?.contains(server.store.owner) == true)
        let shown = try await server.send(signin, body: "", method: "POST")
        let text = try #require(shown["_text"] as? String)
        let token = try #require(text.components(separatedBy: "<pre id=\"token\">").last?.components(separatedBy: "</pre>").first)
        #expect(Store.sessionIssued(token) != nil)
        #expect(text.contains("window.opener.postMessage({ckSession:"))
        #expect(try await server.call("private", "zones/list", webAuthToken: .some(token)).status == 200)
    }
}

@Suite struct SignInCallbackTests {
    @Test func theTokenGoesBackOnlyToACallbackOnThisMachine() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let base = "http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development&callback="
        var local = URLRequest(url: URL(string: base + "http%3A%2F%2F127.0.0.1%3A9%2Fdone")!)
        local.httpMethod = "POST"
        let delegate = NoRedirects()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let (_, localResponse) = try await session.data(for: local)
        let http = try #require(localResponse as? HTTPURLResponse)
        #expect(http.statusCode == 303)
        let location = try #require(URLComponents(string: http.value(forHTTPHeaderField: "Location") ?? ""))
        #expect(location.host == "127.0.0.1" && location.path == "/done")
        // Both names, the same session token, as Apple's redirect carries them.
        let token = try #require(location.queryItems?.first { $0.name == "ckWebAuthToken" }?.value)
        #expect(location.queryItems?.first { $0.name == "ckSession" }?.value == token)
        #expect(Store.sessionIssued(token) != nil)
        #expect(try await server.call("private", "zones/list", webAuthToken: .some(token)).status == 200)
        var remote = URLRequest(url: URL(string: base + "https%3A%2F%2Fevil.example%2Fsteal")!)
        remote.httpMethod = "POST"
        let (data, remoteResponse) = try await session.data(for: remote)
        #expect((remoteResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("<pre id=\"token\">"))
    }
}

/// Keeps redirects visible to the test instead of following them.
final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
