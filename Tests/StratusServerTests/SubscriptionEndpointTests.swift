import Foundation
import StratusEngine
import Testing
import StratusCloud

@Suite struct SubscriptionEndpointTests {
    @Test func subscriptionsAreMadeListedLookedUpAndDeleted() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        var first = Record(recordType: "Note", recordID: RecordID(recordName: "n0", zoneID: ZoneID(zoneName: "Notes")))
        first["title"] = .string("Tomorrow")
        _ = try server.store.database(.private).modifyRecords(saving: [first]).savedRecords()
        let made = try await server.call("private", "subscriptions/modify", #"""
            {"operations": [
              {"operationType": "create", "subscription": {"subscriptionID": "note-changes", "subscriptionType": "query",
                "query": {"recordType": "Note", "filterBy": [{"comparator": "BEGINS_WITH", "fieldName": "title", "fieldValue": {"value": "To"}}]},
                "firesOn": ["create", "update"], "notificationInfo": {"shouldSendContentAvailable": true}}},
              {"operationType": "create", "subscription": {"subscriptionID": "zone-notes", "subscriptionType": "zone", "zoneID": {"zoneName": "Notes"}}},
              {"operationType": "create", "subscription": {"subscriptionID": "bad", "subscriptionType": "zone", "zoneID": {"zoneName": "_defaultZone"}}}
            ]}
            """#)
        #expect(made.status == 200, "\(made.json)")
        let results = try #require(made["subscriptions"] as? [[String: Any]])
        #expect(results[0]["subscriptionID"] as? String == "note-changes", "\(results[0])")
        #expect(results[0]["firesOn"] as? [String] == ["create", "update"], "\(results[0])")
        #expect(results[0]["zoneWide"] as? Bool == true)
        let filter = try #require(((results[0]["query"] as? [String: Any])?["filterBy"] as? [[String: Any]])?.first)
        #expect(filter["comparator"] as? String == "BEGINS_WITH")
        #expect(results[1]["subscriptionType"] as? String == "zone")
        #expect(results[2]["serverErrorCode"] as? String == "BAD_REQUEST")

        // It fires like a subscription made anywhere else.
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        note["title"] = .string("Today")
        _ = try server.store.database(.private, device: "laptop").modifyRecords(saving: [note]).savedRecords()
        let fired = try server.store.database(.private).notifications().map(\.subscriptionID)
        #expect(Set(fired) == ["note-changes", "zone-notes"])

        let listed = try await server.call("private", "subscriptions/list")
        #expect((listed["subscriptions"] as? [[String: Any]])?.compactMap { $0["subscriptionID"] as? String }.sorted() == ["note-changes", "zone-notes"])
        let looked = try await server.call("private", "subscriptions/lookup", #"{"subscriptions": [{"subscriptionID": "zone-notes"}, {"subscriptionID": "none"}]}"#)
        let found = try #require(looked["subscriptions"] as? [[String: Any]])
        #expect(found[0]["subscriptionID"] as? String == "zone-notes")
        #expect(found[1]["serverErrorCode"] as? String == "NOT_FOUND")
        let deleted = try await server.call("private", "subscriptions/modify", #"{"operations": [{"operationType": "delete", "subscription": {"subscriptionID": "zone-notes"}}]}"#)
        #expect((deleted["subscriptions"] as? [[String: Any]])?.first?["deleted"] as? Bool == true)
        let bad = try await server.call("private", "subscriptions/modify", #"{"operations": [{"operationType": "create", "subscription": {"subscriptionType": "query"}}]}"#)
        #expect(bad.status == 400)
    }
}
