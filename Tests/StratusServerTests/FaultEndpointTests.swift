import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusCloud

/// The fault plan on the wire: each kind with the HTTP status, `serverErrorCode` and
/// `retryAfter` CloudKit Web Services sends for it.
@Suite struct FaultEndpointTests {
    private func modify(_ server: ServerHarness, _ operations: String, atomic: Bool = false) async throws -> ServerHarness.Reply {
        try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "Notes"}, "atomic": \#(atomic), "operations": [\#(operations)]}"#)
    }

    private func create(_ name: String, _ title: String = "hi") -> String {
        #"{"operationType": "create", "record": {"recordName": "\#(name)", "recordType": "Note", "fields": {"title": {"value": "\#(title)"}}}}"#
    }

    @Test func wholeRequestFaultsCarryCloudKitsStatusAndRetryAfter() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        let lookup = #"{"zoneID": {"zoneName": "Notes"}, "records": [{"recordName": "x"}]}"#
        let expected: [(FaultKind, Int, String)] = [
            (.requestRateLimited, 429, "THROTTLED"), (.zoneBusy, 503, "TRY_AGAIN_LATER"), (.serviceUnavailable, 503, "TRY_AGAIN_LATER"),
        ]
        for (kind, status, code) in expected {
            try server.store.addFault(Fault(kind: kind, operation: .fetch, retryAfter: 2.5))
            let reply = try await server.call("private", "records/lookup", lookup)
            #expect(reply.status == status, "\(kind)")
            #expect(reply.code == code)
            #expect(reply["retryAfter"] as? Int == 3, "rounded up")
            #expect(reply.headers["retry-after"] == "3")
            #expect((reply["reason"] as? String)?.contains("fault #") == true)
            // Fired once: the same request now succeeds.
            #expect(try await server.call("private", "records/lookup", lookup).status == 200)
        }
        try server.store.addFault(Fault(kind: .notAuthenticated, operation: .zones))
        let signedOut = try await server.call("private", "zones/list")
        #expect(signedOut.status == 421 && signedOut.code == "AUTHENTICATION_REQUIRED")
        #expect((signedOut["redirectURL"] as? String)?.contains("/signin") == true)
        try server.store.addFault(Fault(kind: .limitExceeded, itemLimit: 1))
        let tooMany = try await modify(server, create("a") + "," + create("b"))
        #expect(tooMany.status == 400 && tooMany.code == "LIMIT_EXCEEDED")
        #expect(try await modify(server, create("a")).records.first?["serverErrorCode"] == nil)
        #expect(try server.store.faults().map(\.fired) == [1, 1, 1, 1, 1])
    }

    @Test func conflictsAndPartialFailuresArePerRecord() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        let created = try await modify(server, create("a"))
        let tag = try #require(created.records.first?["recordChangeTag"] as? String)
        try server.store.addFault(Fault(kind: .serverRecordChanged, recordNames: ["a"], otherDeviceFields: #"{"title": {"value": "phone"}}"#))
        let update = #"{"operationType": "update", "record": {"recordName": "a", "recordType": "Note", "recordChangeTag": "\#(tag)", "fields": {"title": {"value": "laptop"}}}}"#
        let conflict = try await modify(server, update)
        #expect(conflict.status == 200)
        let item = try #require(conflict.records.first)
        #expect(item["serverErrorCode"] as? String == "CONFLICT")
        let serverRecord = try #require(item["serverRecord"] as? [String: Any])
        #expect(((serverRecord["fields"] as? [String: Any])?["title"] as? [String: Any])?["value"] as? String == "phone")

        try server.store.addFault(Fault(kind: .partialFailure, recordNames: ["c"], retryAfter: 4))
        let partial = try await modify(server, create("b") + "," + create("c"))
        #expect(partial.status == 200)
        #expect(partial.records[0]["serverErrorCode"] == nil)
        #expect(partial.records[1]["serverErrorCode"] as? String == "TRY_AGAIN_LATER")
        #expect(partial.records[1]["retryAfter"] as? Int == 4)
        // Atomically, the rest of the batch fails with it.
        try server.store.addFault(Fault(kind: .partialFailure, recordNames: ["e"]))
        let atomic = try await modify(server, create("d") + "," + create("e"), atomic: true)
        #expect(atomic.records.map { $0["serverErrorCode"] as? String } == ["ATOMIC_ERROR", "TRY_AGAIN_LATER"])
    }

    @Test func expiredTokensOnZoneAndDatabaseChanges() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.private)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        let token = try db.currentToken(for: ZoneID(zoneName: "Notes"))
        try server.store.addFault(Fault(kind: .changeTokenExpired, operation: .zoneChanges))
        let zones = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "\#(token)"}]}"#)
        let zone = try #require(zones.zones.first)
        #expect(zone["serverErrorCode"] as? String == "CHANGE_TOKEN_EXPIRED")
        let fromStart = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}}]}"#)
        #expect(fromStart.zones.first?["serverErrorCode"] == nil)
        try server.store.addFault(Fault(kind: .changeTokenExpired, operation: .databaseChanges))
        let databaseToken = try db.currentDatabaseToken()
        let expired = try await server.call("private", "changes/database", #"{"syncToken": "\#(databaseToken)"}"#)
        #expect(expired.status == 400 && expired.code == "CHANGE_TOKEN_EXPIRED")
    }
}
