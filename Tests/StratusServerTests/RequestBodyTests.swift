import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusCloud
import StratusEngine
import StratusModel
import Testing

/// Bodies that shipping apps, CLIs and libraries send, read as iCloud reads them.
@Suite struct RequestBodyTests {
    /// A Note type whose schema declares each kind of field, as a first save makes it.
    private func declareNoteType(_ server: ServerHarness) throws {
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "seed", zoneID: ZoneID(zoneName: "Notes")))
        note["when"] = .timestamp(Date(timeIntervalSince1970: 1_000_000))
        note["ratio"] = .double(0.5)
        note["days"] = .list(.timestamp, [.timestamp(Date(timeIntervalSince1970: 0))])
        note["owner"] = .reference(Reference(recordName: "seed"))
        note["spot"] = .location(Location(latitude: 0, longitude: 0))
        let db = server.store.database(.private)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        _ = try db.modifyRecords(saving: [note]).savedRecords()
    }

    private func field(_ record: [String: Any]?, _ name: String) -> [String: Any]? {
        (record?["fields"] as? [String: Any])?[name] as? [String: Any]
    }

    @Test func typelessValuesTakeTheTypesTheSchemaDeclaresInSavesAndFilters() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try declareNoteType(server)
        // As MistKit sends them: no types, a date as epoch milliseconds.
        let saved = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note",
              "fields": {"when": {"value": 1700000000000}, "ratio": {"value": 2}, "days": {"value": [1700000000000, 1700000001000]},
                         "owner": {"value": {"recordName": "seed"}}, "spot": {"value": {"latitude": 48.85, "longitude": 2.35}}}}}]}
            """#)
        #expect(saved.status == 200)
        let record = saved.records.first
        #expect(record?["serverErrorCode"] == nil, "\(saved.json)")
        #expect(field(record, "when")?["type"] as? String == "TIMESTAMP")
        #expect(field(record, "when")?["value"] as? Int == 1_700_000_000_000)
        #expect(field(record, "ratio")?["type"] as? String == "DOUBLE")
        #expect(field(record, "days")?["type"] as? String == "TIMESTAMP_LIST")
        #expect(field(record, "owner")?["type"] as? String == "REFERENCE")

        let filters = [
            #"{"fieldName": "when", "comparator": "GREATER_THAN", "fieldValue": {"value": 1600000000000}}"#,
            #"{"systemFieldName": "modifiedTimestamp", "comparator": "GREATER_THAN", "fieldValue": {"value": 1600000000000}}"#,
            #"{"systemFieldName": "createdTimestamp", "comparator": "GREATER_THAN", "fieldValue": {"value": 1600000000000}}"#,
        ]
        for filter in filters {
            let query = try await server.call("private", "records/query",
                                              #"{"zoneID": {"zoneName": "Notes"}, "query": {"recordType": "Note", "filterBy": [\#(filter)]}}"#)
            #expect(query.status == 200, "\(filter): \(query.json)")
            #expect(query.records.compactMap { $0["recordName"] as? String }.contains("n1"), "\(filter): \(query.json)")
            #expect(!query.records.compactMap { $0["recordName"] as? String }.contains("seed") || filter.contains("Timestamp"))
        }
        // A value the declared type cannot take is still refused, naming both types.
        let wrong = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n2", "recordType": "Note",
              "fields": {"when": {"value": "soon"}}}}]}
            """#)
        #expect((wrong.records.first?["reason"] as? String)?.contains("TIMESTAMP") == true, "\(wrong.json)")
        // So is such a value in a filter, in Web Services' words, not the predicate language's.
        let filter = try await server.call("private", "records/query", #"""
            {"zoneID": {"zoneName": "Notes"}, "query": {"recordType": "Note", "filterBy": [{"fieldName": "when", "comparator": "GREATER_THAN", "fieldValue": {"value": "yesterday"}}]}}
            """#)
        #expect(filter.status == 400)
        let reason = try #require(filter["reason"] as? String, "\(filter.json)")
        #expect(reason.contains("query.filterBy[0].fieldValue") && reason.contains("milliseconds since 1970"), "\(reason)")
        #expect(!reason.contains("date:") && !reason.contains("CAST"), "\(reason)")
    }

    @Test func nullsICloudAcceptsAreReadAsAbsent() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try declareNoteType(server)
        let saved = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Notes"}, "operations": [{"operationType": "create", "record": {"recordName": "n-null", "recordType": "Note",
              "recordChangeTag": null, "created": null, "modified": null,
              "fields": {"when": {"type": "TIMESTAMP", "value": null}, "ratio": {"value": 1.5, "type": "DOUBLE"}}}}]}
            """#)
        #expect(saved.status == 200, "\(saved.json)")
        let record = saved.records.first
        #expect(record?["serverErrorCode"] == nil, "\(saved.json)")
        #expect(field(record, "when") == nil)
        #expect(field(record, "ratio")?["value"] as? Double == 1.5)
    }

    @Test func aBareRelativeLocationSortsByDistanceAsTheValueFormDoes() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.public)
        _ = try db.modifyRecords(saving: [
            Record(recordType: "Items", recordID: RecordID(recordName: "paris"), fields: ["location": .location(Location(latitude: 48.85, longitude: 2.35))]),
            Record(recordType: "Items", recordID: RecordID(recordName: "tokyo"), fields: ["location": .location(Location(latitude: 35.68, longitude: 139.69))]),
        ]).savedRecords()
        let centres = [#"{"latitude": 35.0, "longitude": 139.0}"#, #"{"value": {"latitude": 35.0, "longitude": 139.0}, "type": "LOCATION"}"#]
        for centre in centres {
            let query = try await server.call("public", "records/query",
                                              #"{"query": {"recordType": "Items", "sortBy": [{"fieldName": "location", "relativeLocation": \#(centre)}]}}"#)
            #expect(query.status == 200, "\(centre): \(query.json)")
            #expect(query.records.compactMap { $0["recordName"] as? String } == ["tokyo", "paris"], "\(centre)")
        }
    }

    @Test func aBareStringComparedWithAReferenceFieldIsRefused() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try declareNoteType(server)
        let bare = try await server.call("private", "records/query", #"""
            {"zoneID": {"zoneName": "Notes"}, "query": {"recordType": "Note", "filterBy": [{"fieldName": "owner", "comparator": "EQUALS", "fieldValue": {"value": "seed"}}]}}
            """#)
        #expect(bare.status == 400, "\(bare.json)")
        #expect(bare.code == "BAD_REQUEST")
        #expect((bare["reason"] as? String)?.contains("could not decode reference object") == true, "\(bare.json)")
        #expect((bare["reason"] as? String)?.contains("filterBy[0].fieldValue") == true, "\(bare.json)")
        let object = try await server.call("private", "records/query", #"""
            {"zoneID": {"zoneName": "Notes"}, "query": {"recordType": "Note", "filterBy": [{"fieldName": "owner", "comparator": "EQUALS", "fieldValue": {"value": {"recordName": "seed"}}}]}}
            """#)
        #expect(object.status == 200, "\(object.json)")
        #expect(object.records.compactMap { $0["recordName"] as? String } == ["seed"])
    }

    @Test func invalidUTF8InABodyIsRefusedAndNothingIsStored() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        var body = Data(#"{"operations": [{"operationType": "create", "record": {"recordName": "bad", "recordType": "Notice", "fields": {"text": {"value": "caf"#.utf8)
        body += Data([0xC3, 0x28])  // a lead byte without its continuation
        body += Data(#""}}}}]}"#.utf8)
        var request = URLRequest(url: URL(string: "\(server.base)/private/records/modify?ckAPIToken=\(server.apiToken)&ckWebAuthToken=\(server.webAuthToken)")!)
        request.httpMethod = "POST"
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        #expect(json["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((json["reason"] as? String)?.contains("UTF-8") == true, "\(json)")
        let lookup = try await server.call("private", "records/lookup", #"{"records": [{"recordName": "bad"}]}"#)
        #expect(lookup.records.first?["serverErrorCode"] as? String == "NOT_FOUND")
    }

    @Test func theAnswerOfAssetsRereferenceSavesAsAnAsset() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let asset = try server.store.putAsset(Data("picture".utf8))
        let db = server.store.database(.private)
        _ = try db.modifyRecords(saving: [Record(recordType: "Photo", recordID: RecordID(recordName: "original"), fields: ["image": .asset(asset)])]).savedRecords()
        let rereferenced = try await server.call("private", "assets/rereference", #"{"assets": [{"recordName": "original", "fieldName": "image"}]}"#)
        let value = try #require((rereferenced["assets"] as? [[String: Any]])?.first, "\(rereferenced.json)")
        #expect(value["recordName"] as? String == "original")
        // CloudKit JS v2 puts that answer in the copy's field as it is, without a type.
        let text = String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
        let saved = try await server.call("private", "records/modify",
                                          #"{"operations": [{"operationType": "create", "record": {"recordName": "copy", "recordType": "Photo", "fields": {"image": {"value": \#(text)}}}}]}"#)
        #expect(saved.records.first?["serverErrorCode"] == nil, "\(saved.json)")
        let image = try #require(field(saved.records.first, "image"))
        #expect((image["value"] as? [String: Any])?["fileChecksum"] as? String == asset.fileChecksum)
        #expect(["ASSET", "ASSETID"].contains(image["type"] as? String ?? ""), "\(image)")
    }
}
