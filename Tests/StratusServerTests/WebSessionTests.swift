import Foundation
import FoundationNetworking
import StratusEngine
@testable import StratusServer
import StratusTestSupport
import Testing

/// Sign-in sessions as iCloud runs them: tokens from the sign-in page expire, answers hand out
/// replacements under both header names, and tokens of `stratus auth login` stay as they are.
@Suite struct WebSessionTests {
    /// Signs in through the sign-in page (as the owner) and returns the token it shows.
    private func signIn(_ server: ServerHarness) async throws -> String {
        let signin = "http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development"
        let text = try #require(try await server.send(signin, body: "", method: "POST")["_text"] as? String)
        return try #require(text.components(separatedBy: "<pre id=\"token\">").last?.components(separatedBy: "</pre>").first)
    }

    @Test func anAnswerCarriesANewTokenThatSignsTheSameUserIn() async throws {
        let server = try await ServerHarness(sessions: WebSessionPolicy(rotationInterval: 0))
        defer { Task { await server.stop() } }
        let first = try await signIn(server)
        let answer = try await server.call("private", "users/current", webAuthToken: .some(first))
        #expect(answer.status == 200)
        let next = try #require(answer.headers["x-apple-cloudkit-web-auth-token"])
        #expect(next != first)
        #expect(answer.headers["x-apple-cloudkit-session"] == next)
        #expect(answer.headers["access-control-expose-headers"]?.contains("X-Apple-CloudKit-Session") == true)
        let again = try await server.call("private", "users/current", webAuthToken: .some(next))
        #expect(again.status == 200)
        #expect(again["userRecordName"] as? String == server.store.owner)
        // The previous token keeps working for its lifetime, as iCloud's do.
        #expect(try await server.call("private", "zones/list", webAuthToken: .some(first)).status == 200)
    }

    @Test func aFreshSessionTokenIsRepeatedUntilItIsOldEnoughToReplace() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let token = try await signIn(server)
        let answer = try await server.call("private", "zones/list", webAuthToken: .some(token))
        #expect(answer.headers["x-apple-cloudkit-web-auth-token"] == token)
        #expect(answer.headers["x-apple-cloudkit-session"] == token)
    }

    @Test func anExpiredSessionAsksToSignInAgain() async throws {
        let server = try await ServerHarness(sessions: WebSessionPolicy(lifetime: 0))
        defer { Task { await server.stop() } }
        let token = try await signIn(server)
        let expired = try await server.call("private", "zones/list", webAuthToken: .some(token))
        #expect(expired.status == 421)
        #expect(expired.code == "AUTHENTICATION_REQUIRED")
        #expect((expired["reason"] as? String)?.contains("expired") == true)
        #expect((expired["redirectURL"] as? String)?.hasSuffix("/signin?container=\(ServerHarness.container)&environment=development") == true)
        #expect(expired.headers["x-apple-cloudkit-web-auth-token"] == nil)
        // A token of `stratus auth login` has no issue time: it does not expire, and is repeated.
        let script = try await server.call("private", "zones/list")
        #expect(script.status == 200)
        #expect(script.headers["x-apple-cloudkit-web-auth-token"] == server.webAuthToken)
    }

    @Test func aSessionTokenCarriesTheTimeItWasIssued() throws {
        let folder = try TemporaryDirectory("stratus-session")
        defer { folder.remove() }
        let store = try Store(path: folder.storePath)
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try store.makeSessionToken(container: ServerHarness.container, user: store.owner, issuedAt: issued)
        #expect(Store.sessionIssued(token) == issued)
        #expect(try store.webAuthUser(token, container: ServerHarness.container) == store.owner)
        #expect(Store.sessionIssued(try store.makeWebAuthToken(container: ServerHarness.container, user: store.owner)) == nil)
        // The time is covered by the stored digest: a token with another time is no token.
        let forged = token.replacingOccurrences(of: "t1800000000", with: "t1900000000")
        #expect(try store.webAuthUser(forged, container: ServerHarness.container) == nil)
        let policy = WebSessionPolicy(lifetime: 60)
        #expect(policy.isExpired(token, now: issued.addingTimeInterval(59)) == false)
        #expect(policy.isExpired(token, now: issued.addingTimeInterval(60)))
    }
}
