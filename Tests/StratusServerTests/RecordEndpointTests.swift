import Foundation
import StratusEngine
import StratusModel
import StratusPredicates
import Testing
import StratusCloud

@Suite struct RecordEndpointTests {
    /// A zone of people to query, saved through the engine.
    private func seed(_ server: ServerHarness) throws {
        let db = server.store.database(.private)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "People")])
        var records: [Record] = []
        let names = ["Ada Lovelace", "Bob Smith", "Chloé Dupont", "田中 太郎", "Émile Zola 🎩"]
        for (index, name) in names.enumerated() {
            var record = Record(recordType: "Person", recordID: RecordID(recordName: "p\(index)", zoneID: ZoneID(zoneName: "People")))
            record["name"] = .string(name)
            record["age"] = .int64(Int64(20 + index * 10))
            record["score"] = .double(Double(index) / 2)
            record["tags"] = .list(.string, [.string(index % 2 == 0 ? "even" : "odd"), .string("t\(index)")])
            record["home"] = .location(Location(latitude: 48.85 + Double(index) * 0.01, longitude: 2.35))
            record["born"] = .timestamp(Date(timeIntervalSince1970: 1_000_000_000 + Double(index) * 86_400))
            records.append(record)
        }
        _ = try db.modifyRecords(saving: records).savedRecords()
    }

    private func names(_ reply: ServerHarness.Reply) -> [String] { reply.records.compactMap { $0["recordName"] as? String } }

    /// Every CKWS comparator answers what the engine answers for the predicate it stands for.
    @Test func everyComparatorIsTheSameCheckedQueryAsItsPredicate() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try seed(server)
        let db = server.store.database(.private)
        let cases: [(String, String, [PredicateArgument])] = [
            (#"{"comparator": "EQUALS", "fieldName": "age", "fieldValue": {"value": 30}}"#, "age == 30", []),
            (#"{"comparator": "NOT_EQUALS", "fieldName": "age", "fieldValue": {"value": 30}}"#, "age != 30", []),
            (#"{"comparator": "LESS_THAN", "fieldName": "age", "fieldValue": {"value": 40}}"#, "age < 40", []),
            (#"{"comparator": "LESS_THAN_OR_EQUALS", "fieldName": "age", "fieldValue": {"value": 40}}"#, "age <= 40", []),
            (#"{"comparator": "GREATER_THAN", "fieldName": "score", "fieldValue": {"value": 0.5, "type": "DOUBLE"}}"#, "score > 0.5", []),
            (#"{"comparator": "GREATER_THAN_OR_EQUALS", "fieldName": "born", "fieldValue": {"value": 1000086400000, "type": "TIMESTAMP"}}"#,
             "born >= %@", [.value(.timestamp(Date(timeIntervalSince1970: 1_000_086_400)))]),
            (#"{"comparator": "BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": "Ch"}}"#, "name BEGINSWITH 'Ch'", []),
            (#"{"comparator": "NOT_BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": "Ch"}}"#, "NOT name BEGINSWITH 'Ch'", []),
            (#"{"comparator": "IN", "fieldName": "age", "fieldValue": {"value": [20, 40], "type": "INT64_LIST"}}"#, "age IN {20, 40}", []),
            (#"{"comparator": "NOT_IN", "fieldName": "age", "fieldValue": {"value": [20, 40], "type": "INT64_LIST"}}"#, "NOT age IN {20, 40}", []),
            (#"{"comparator": "LIST_CONTAINS", "fieldName": "tags", "fieldValue": {"value": "even"}}"#, "tags CONTAINS 'even'", []),
            (#"{"comparator": "NOT_LIST_CONTAINS", "fieldName": "tags", "fieldValue": {"value": "even"}}"#, "NOT tags CONTAINS 'even'", []),
            (#"{"comparator": "LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": {"value": ["t1", "t2"], "type": "STRING_LIST"}}"#,
             "ANY tags IN {'t1', 't2'}", []),
            (#"{"comparator": "NOT_LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": {"value": ["t1", "t2"], "type": "STRING_LIST"}}"#,
             "NOT (ANY tags IN {'t1', 't2'})", []),
            (#"{"comparator": "LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": {"value": ["odd", "t3"], "type": "STRING_LIST"}}"#,
             "tags CONTAINS 'odd' AND tags CONTAINS 't3'", []),
            (#"{"comparator": "LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": {"value": "ev"}}"#, "ANY tags BEGINSWITH 'ev'", []),
            (#"{"comparator": "NOT_LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": {"value": "ev"}}"#, "NOT (ANY tags BEGINSWITH 'ev')", []),
            (#"{"comparator": "CONTAINS_ANY_TOKENS", "fieldValue": {"value": "smith zola"}}"#, "ANY tokenize:using:('smith zola', 'cdl') IN allTokens", []),
            (#"{"comparator": "CONTAINS_ALL_TOKENS", "fieldValue": {"value": "emile zola"}}"#, "ALL tokenize:using:('emile zola', 'cdl') IN allTokens", []),
            (#"{"comparator": "CONTAINS_ANY_TOKENS", "fieldValue": {"value": "bob"}}"#, "self CONTAINS 'bob'", []),
            (#"{"comparator": "NEAR", "fieldName": "home", "fieldValue": {"value": {"latitude": 48.85, "longitude": 2.35}}, "distance": 1500}"#,
             "distanceToLocation:fromLocation:(home, %@) < 1.5", [.value(.location(Location(latitude: 48.85, longitude: 2.35)))]),
            (#"{"comparator": "EQUALS", "systemFieldName": "recordName", "fieldValue": {"value": {"recordName": "p2"}, "type": "REFERENCE"}}"#,
             "recordID == %@", [.value(.reference(Reference(recordName: "p2")))]),
        ]
        for (filter, format, arguments) in cases {
            let reply = try await server.call("private", "records/query",
                                              #"{"zoneID": {"zoneName": "People"}, "query": {"recordType": "Person", "filterBy": [\#(filter)]}}"#)
            #expect(reply.status == 200, "\(filter): \(reply.json)")
            let expected = try db.records(matching: Query(recordType: "Person", predicateFormat: format, arguments: arguments),
                                          inZoneWith: ZoneID(zoneName: "People")).records.map(\.recordName)
            #expect(Set(names(reply)) == Set(expected), "\(filter) against \(format)")
            #expect(!expected.isEmpty || format.hasPrefix("NOT"), "\(format) matches nothing: a weak case")
        }
    }

    @Test func sortsCursorsAndDesiredKeys() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try seed(server)
        let body = #"{"zoneID": {"zoneName": "People"}, "resultsLimit": 2, "desiredKeys": ["name"], "query": {"recordType": "Person", "sortBy": [{"fieldName": "age", "ascending": false}]}}"#
        let first = try await server.call("private", "records/query", body)
        #expect(names(first) == ["p4", "p3"])
        #expect((first.records.first?["fields"] as? [String: Any])?.keys.sorted() == ["name"])
        let zone = try #require(first.records.first?["zoneID"] as? [String: Any])
        #expect(zone["ownerRecordName"] as? String == server.store.owner)
        #expect(zone["zoneType"] as? String == "REGULAR_CUSTOM_ZONE")
        let marker = try #require(first["continuationMarker"] as? String)
        let second = try await server.call("private", "records/query", #"{"continuationMarker": "\#(marker)", "resultsLimit": 10}"#)
        #expect(names(second) == ["p2", "p1", "p0"])
        #expect(second["continuationMarker"] == nil)
        let near = try await server.call("private", "records/query", #"{"zoneID": {"zoneName": "People"}, "query": {"recordType": "Person", "sortBy": [{"fieldName": "home", "relativeLocation": {"value": {"latitude": 48.89, "longitude": 2.35}}}]}}"#)
        #expect(names(near).first == "p4")
    }

    @Test func refusedQueriesSayWhyAsBadRequests() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try seed(server)
        let cases: [(String, String)] = [
            (#"{"query": {"recordType": "Person", "filterBy": [{"comparator": "BEGINS_WITH", "fieldName": "age", "fieldValue": {"value": "2"}}]}}"#, "BEGINSWITH"),
            (#"{"query": {"recordType": "Nope"}}"#, "Did not find record type"),
            (#"{"query": {"filterBy": []}}"#, "recordType"),
            (#"{"query": {"recordType": "Person", "filterBy": [{"comparator": "WITHIN", "fieldName": "age", "fieldValue": {"value": 1}}]}}"#, "unknown comparator"),
            (#"{"query": {"recordType": "Person", "filterBy": [{"comparator": "NOT_LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": {"value": ["a"]}}]}}"#, "cannot express"),
            (#"{"continuationMarker": "garbage"}"#, "damaged"),
        ]
        for (body, reason) in cases {
            let reply = try await server.call("private", "records/query", body)
            #expect(reply.status == 400, "\(body): \(reply.json)")
            #expect(reply.code == "BAD_REQUEST")
            #expect((reply["reason"] as? String)?.contains(reason) == true, "\(reply.json)")
        }
        let zone = try await server.call("private", "records/query", #"{"zoneID": {"zoneName": "Nowhere"}, "query": {"recordType": "Person"}}"#)
        #expect(zone.status == 404)
        #expect(zone.code == "ZONE_NOT_FOUND")
        let foreign = try await server.call("private", "records/query", #"{"zoneID": {"zoneName": "People", "ownerRecordName": "_someoneelse"}, "query": {"recordType": "Person"}}"#)
        #expect(foreign.code == "ZONE_NOT_FOUND")
    }

    @Test func lookupAnswersInOrderWithPerRecordErrors() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try seed(server)
        let reply = try await server.call("private", "records/lookup",
                                          #"{"zoneID": {"zoneName": "People"}, "records": [{"recordName": "p3"}, {"recordName": "missing"}, {"recordName": "p0"}], "desiredKeys": ["age"]}"#)
        #expect(reply.status == 200)
        #expect(names(reply) == ["p3", "missing", "p0"])
        #expect(reply.records[1]["serverErrorCode"] as? String == "NOT_FOUND")
        #expect(reply.records[1]["reason"] as? String == "Record not found")
        #expect(reply.records[1]["fields"] == nil)
        #expect(((reply.records[0]["fields"] as? [String: Any])?["age"] as? [String: Any])?["value"] as? Int == 50)
        let single = try await server.call("private", "records/lookup", #"{"zoneID": {"zoneName": "People"}, "records": {"recordName": "p1"}}"#)
        #expect(names(single) == ["p1"])
    }
}
