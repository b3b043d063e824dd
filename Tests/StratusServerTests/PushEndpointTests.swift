import Foundation
import StratusEngine
import Testing
import StratusCloud

@Suite struct PushEndpointTests {
    @Test func aRegisteredTokensOutboxHoldsThePushesItWouldHaveBeenSent() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.private)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        _ = try db.save(.recordZone(ZoneID(zoneName: "Notes"), subscriptionID: "notes-zone"))
        let tokensBase = "http://127.0.0.1:\(server.port)/device/1/\(ServerHarness.container)/development/tokens"
        let created = try await server.send("\(tokensBase)/create?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)",
                                            body: #"{"apnsEnvironment": "development"}"#, method: "POST")
        #expect(created.status == 200, "\(created.json)")
        let token = try #require(created["apnsToken"] as? String)
        let courier = try #require(created["webcourierURL"] as? String)
        #expect(Data(base64Encoded: token)?.count == 32)
        // Pollable before it is registered, as CloudKit JS polls it; nothing yet.
        #expect(try await server.send(courier + "?wait=0", body: nil, method: "GET").json["ck"] is [String: Any])
        let register = try await server.send("\(tokensBase)/register?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)",
                                             body: #"{"apnsEnvironment": "development", "apnsToken": "\#(token)"}"#, method: "POST")
        #expect(register.status == 200, "\(register.json)")

        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        note["title"] = .string("東京")
        _ = try server.store.database(.private, device: "phone").modifyRecords(saving: [note]).savedRecords()
        let push = try await server.send(courier + "?wait=5", body: nil, method: "GET")
        #expect(push.status == 200)
        let ck = try #require(push["ck"] as? [String: Any])
        #expect(ck["cid"] as? String == ServerHarness.container)
        let fet = try #require(ck["fet"] as? [String: Any])
        #expect(fet["zid"] as? String == "Notes")
        #expect(fet["zoid"] as? String == server.store.owner)
        #expect(fet["dbs"] as? Int == 1)
        #expect(fet["sid"] as? String == "notes-zone")
        #expect((push["aps"] as? [String: Any])?["content-available"] as? Int == 1)
        // Delivered once; the outbox keeps it for people to read.
        let idle = try await server.send(courier + "?wait=0", body: nil, method: "GET")
        #expect(idle.status == 200 && (idle["ck"] as? [String: Any])?.isEmpty == true)
        let outbox = try await server.send(courier + "/outbox", body: nil, method: "GET")
        #expect((outbox["payloads"] as? [[String: Any]])?.count == 1)
        let foreign = try await server.send("\(tokensBase)/register?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)",
                                            body: #"{"apnsEnvironment": "development", "apnsToken": "bm90IGEgdG9rZW4="}"#, method: "POST")
        #expect(foreign.status == 400)
        let anonymous = try await server.send("\(tokensBase)/create?ckAPIToken=\(server.apiToken)", body: "{}", method: "POST")
        #expect(anonymous.status == 421)
    }
}
