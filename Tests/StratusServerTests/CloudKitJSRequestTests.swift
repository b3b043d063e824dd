import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusCloud
import StratusEngine
import StratusTestSupport
import Testing

/// The requests Apple's CloudKit JS (v1 and v2, unmodified) sends, exactly as it sends them,
/// and the answers it needs to go on.
@Suite struct CloudKitJSRequestTests {
    /// CloudKit JS's query parameters on every request, after the tokens.
    static let ckjsParameters = "ckjsBuildVersion=2314ProjectDev27&ckjsVersion=2.6.4&clientId=5f4c2a47-0f4d-4c8e-9a51-2a0b6f2f6c11"

    @Test func aTokenFromTokensCreateIsPolledAtOnceAndAnIdlePollAnswersJSON() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.private)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        _ = try db.save(.recordZone(ZoneID(zoneName: "Notes"), subscriptionID: "notes-zone"))
        // registerForNotifications() on a first visit: tokens/create under the device service, then
        // straight to the web courier, with no tokens/register.
        let created = try await server.send(
            "http://127.0.0.1:\(server.port)/device/1/\(ServerHarness.container)/development/tokens/create?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)&\(Self.ckjsParameters)",
            body: #"{"apnsEnvironment":"development"}"#, method: "POST")
        #expect(created.status == 200, "\(created.json)")
        let courier = try #require(created["webcourierURL"] as? String)

        // Nothing yet: the poll ends with JSON CloudKit JS reads as no notification (it calls
        // .json() on every answer and looks in `ck` for `fet` or `qry`).
        let idle = try await server.send(courier + "?wait=0", body: nil, method: "GET")
        #expect(idle.status == 200)
        let idleCK = try #require(idle["ck"] as? [String: Any], "\(idle.json)")
        #expect(idleCK["fet"] == nil && idleCK["qry"] == nil)

        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        note["title"] = .string("from the phone")
        _ = try server.store.database(.private, device: "phone").modifyRecords(saving: [note]).savedRecords()
        let push = try await server.send(courier, body: nil, method: "GET")
        #expect(push.status == 200)
        let fet = try #require((push["ck"] as? [String: Any])?["fet"] as? [String: Any], "\(push.json)")
        #expect(fet["sid"] as? String == "notes-zone")
    }

    @Test func aSignedOutPageReadsThePublicDatabaseWithTheLiteralNullToken() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        _ = try server.store.database(.public).modifyRecords(saving: [Record(recordType: "Notice", recordID: RecordID(recordName: "hello"),
                                                                             fields: ["text": .string("hi")])])
        // CloudKit JS signed out: `ckWebAuthToken=null`, and text/plain.
        let url = "\(server.base)/public/records/query?ckAPIToken=\(server.apiToken)&ckWebAuthToken=null&\(Self.ckjsParameters)"
        let query = try await server.send(url, body: #"{"query":{"recordType":"Notice"},"zoneID":{"zoneName":"_defaultZone"}}"#, method: "POST")
        #expect(query.status == 200, "\(query.json)")
        #expect(query.records.compactMap { $0["recordName"] as? String } == ["hello"])
        #expect(query.headers["x-apple-cloudkit-web-auth-token"] == nil)
        let empty = try await server.call("public", "records/query", #"{"query":{"recordType":"Notice"}}"#, webAuthToken: .some(""))
        #expect(empty.status == 200, "\(empty.json)")
        // A write still needs a user.
        let write = try await server.call("public", "records/modify",
                                          #"{"operations":[{"operationType":"create","record":{"recordType":"Notice","fields":{"text":{"value":"x"}}}}]}"#,
                                          webAuthToken: .some("null"))
        #expect(write.status == 421)
    }

    @Test func usersCallerAnswersTheIdentityItself() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let caller = try await server.send("\(server.base)/public/users/caller?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)&\(Self.ckjsParameters)",
                                           body: nil, method: "GET")
        #expect(caller.status == 200)
        #expect(caller["userRecordName"] as? String == server.store.owner, "\(caller.json)")
        #expect((caller["lookupInfo"] as? [String: Any])?["userRecordName"] as? String == server.store.owner)
        #expect(caller["nameComponents"] is [String: Any])
    }

    @Test func theSignInPageHandsTheOpenerBothCkSessionAndCkWebAuthToken() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let page = try await server.send("http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development",
                                         body: "", method: "POST")
        #expect(page.status == 200)
        let html = try #require(page["_text"] as? String)
        let script = try #require(html.range(of: "postMessage(").map { String(html[$0.upperBound...].prefix(400)) })
        let token = try #require(html.range(of: "<pre id=\"token\">").map { String(html[$0.upperBound...].prefix { $0 != "<" }) })
        #expect(script.contains("ckSession: \"\(token)\""), "\(script)")
        #expect(script.contains("ckWebAuthToken: \"\(token)\""), "\(script)")
        // The token it hands out signs in.
        #expect(try await server.call("public", "users/caller", webAuthToken: .some(token)).status == 200)
    }

    @Test func stoppingTheServerEndsAnOpenLongPollAtOnce() async throws {
        let server = try await ServerHarness()
        let created = try await server.send(
            "http://127.0.0.1:\(server.port)/device/1/\(ServerHarness.container)/development/tokens/create?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)",
            body: #"{"apnsEnvironment":"development"}"#, method: "POST")
        let courier = try #require(created["webcourierURL"] as? String)
        // A poll that would wait a minute (the server's longest); the client gives up after
        // four. The waits are hang guards only: on a loaded machine the request can take long
        // to reach the server, and its poll is watched for as soon as it opens.
        var request = URLRequest(url: URL(string: courier + "?wait=60")!)
        request.timeoutInterval = 240
        let poll = Task { try await URLSession.shared.data(for: request) }
        #expect(try await Poll.asyncUntil(timeout: .seconds(180)) { server.openLongPolls == 1 })
        await server.stop()
        let (data, response) = try await poll.value
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(((try JSONSerialization.jsonObject(with: data)) as? [String: Any])?["ck"] is [String: Any])
    }
}
