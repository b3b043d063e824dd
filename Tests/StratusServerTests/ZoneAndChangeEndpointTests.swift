import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusSQLite
import Testing

@Suite struct ZoneAndChangeEndpointTests {
    @Test func zonesAreListedLookedUpMadeAndDeleted() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let made = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}}}, {"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}, "atomic": true}}, {"operationType": "create", "zone": {"zoneID": {"zoneName": "_bad"}}}]}"#)
        #expect(made.status == 200)
        #expect(made.zones.count == 3)
        #expect((made.zones[0]["zoneID"] as? [String: Any])?["zoneName"] as? String == "Notes")
        #expect(made.zones[1]["syncToken"] as? String == made.zones[0]["syncToken"] as? String)
        #expect(made.zones[2]["serverErrorCode"] as? String == "BAD_REQUEST")
        let listed = try await server.call("private", "zones/list")
        #expect(listed.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String } == ["_defaultZone", "Notes"])
        #expect(try await server.call("private", "zones/list", "{}").status == 200)  // POSTed with a body, as some clients do
        let looked = try await server.call("private", "zones/lookup", #"{"zones": [{"zoneName": "Notes"}, {"zoneName": "Missing"}]}"#)
        #expect(looked.zones[0]["syncToken"] != nil)
        #expect(looked.zones[1]["serverErrorCode"] as? String == "ZONE_NOT_FOUND")
        let deleted = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "delete", "zone": {"zoneID": {"zoneName": "Notes"}}}, {"operationType": "delete", "zone": {"zoneID": {"zoneName": "_defaultZone"}}}]}"#)
        #expect(deleted.zones[0]["deleted"] as? Bool == true)
        #expect(deleted.zones[1]["serverErrorCode"] as? String == "BAD_REQUEST")
        let publicZones = try await server.call("public", "zones/modify", #"{"operations": []}"#)
        #expect(publicZones.status == 400)
    }

    @Test func changeFeedsPlayBackWithTokens() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.private)
        let start = try await server.call("private", "changes/database", "{}")
        let databaseToken = try #require(start["syncToken"] as? String)
        try db.modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        note["title"] = .string("東京 🗼")
        _ = try db.modifyRecords(saving: [note, Record(recordType: "Note", recordID: RecordID(recordName: "n2", zoneID: ZoneID(zoneName: "Notes")))]).savedRecords()
        let changed = try await server.call("private", "changes/database", #"{"syncToken": "\#(databaseToken)"}"#)
        #expect(changed.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String } == ["Notes"])
        #expect(changed["moreComing"] as? Bool == false)

        let full = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}}, {"zoneID": {"zoneName": "Missing"}}]}"#)
        #expect(full.zones.count == 2)
        let page = full.zones[0]
        #expect((page["records"] as? [[String: Any]])?.count == 2)
        let token = try #require(page["syncToken"] as? String)
        #expect(full.zones[1]["serverErrorCode"] as? String == "ZONE_NOT_FOUND")
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "n2", zoneID: ZoneID(zoneName: "Notes"))])
        let since = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "\#(token)"}]}"#)
        let records = try #require(since.zones.first?["records"] as? [[String: Any]])
        #expect(records.count == 1)
        #expect(records.first?["recordName"] as? String == "n2")
        #expect(records.first?["deleted"] as? Bool == true)

        let paged = try await server.call("private", "records/changes", #"{"zoneID": {"zoneName": "Notes"}, "resultsLimit": 1}"#)
        #expect(paged.records.count == 1)
        #expect(paged["moreComing"] as? Bool == false || paged.records.count == 1)
        let defaultZone = try await server.call("private", "records/changes", #"{"zoneID": {"zoneName": "_defaultZone"}}"#)
        #expect(defaultZone.status == 400)
        #expect(defaultZone["reason"] as? String == "cannot get changes in default zone")
        let damaged = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "AAAA"}]}"#)
        #expect(damaged.zones.first?["serverErrorCode"] as? String == "BAD_REQUEST")
        let old = try await server.call("private", "zones/changes", "{}")
        #expect(old["metaSyncToken"] as? String == old["syncToken"] as? String)
    }

    /// A schema import by another process that moves the store to production moves what the
    /// running server answers: its next request for development is refused, production served.
    @Test func aSchemaImportElsewhereMovesTheServedEnvironment() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let production = "http://127.0.0.1:\(server.port)/database/1/\(ServerHarness.container)/production"
        #expect(try await server.call("private", "zones/list").status == 200)
        #expect(try await server.call("private", "zones/list", base: production).status == 404)
        let otherProcess = try Store(path: server.folder.storePath)
        _ = try otherProcess.importSchema(text: """
            DEFINE SCHEMA
                RECORD TYPE Note (
                    "___recordID" REFERENCE QUERYABLE,
                    title STRING QUERYABLE
                );
            """, environment: .production)
        let development = try await server.call("private", "zones/list")
        #expect(development.status == 404)
        #expect((development["reason"] as? String)?.contains("production environment") == true, "\(development.json)")
        #expect(try await server.call("private", "zones/list", base: production).status == 200)
    }

    @Test func badRequestsGetClearErrorsNeverA5xx() async throws {
        let server = try await ServerHarness(maximumBodyBytes: 4096)
        defer { Task { await server.stop() } }
        let malformed = try await server.call("private", "records/query", #"{"query": "#)
        #expect(malformed.status == 400)
        #expect((malformed["reason"] as? String)?.hasPrefix("The request body is not JSON") == true)
        #expect(try await server.call("private", "records/query", "[1, 2]").status == 400)
        let large = try await server.call("private", "records/query", "{\"pad\": \"" + String(repeating: "x", count: 10_000) + "\"}")
        #expect(large.status == 413)
        let unknown = try await server.call("private", "records/explode", "{}")
        #expect(unknown.status == 404)
        let notAPath = try await server.send("http://127.0.0.1:\(server.port)/nothing", body: nil, method: "GET")
        #expect(notAPath.status == 404)
        let wrongDatabase = try await server.call("public", "changes/zone", #"{"zones": []}"#)
        #expect(wrongDatabase.status == 400)
        #expect((wrongDatabase["reason"] as? String)?.contains("not applicable") == true)
        let environment = try await server.call("private", "zones/list", base: "http://127.0.0.1:\(server.port)/database/1/\(ServerHarness.container)/staging")
        #expect(environment.status == 404)
        let production = try await server.call("private", "zones/list", base: "http://127.0.0.1:\(server.port)/database/1/\(ServerHarness.container)/production")
        #expect(production.status == 404)
        #expect((production["reason"] as? String)?.contains("development environment") == true)
        // Random bytes and odd shapes: never a 5xx.
        var generator = SeededGenerator(seed: 7)
        let bodies = ["{}", "null", "\"x\"", #"{"operations": {}}"#, #"{"zones": [1]}"#, #"{"records": [{"recordName": 5}]}"#,
                      #"{"query": {"recordType": "T", "filterBy": [{}]}}"#, #"{"query": {"recordType": "T", "sortBy": [{"fieldName": 1}]}}"#]
            + (0..<40).map { _ in String((0..<Int(generator.next() % 64)).map { _ in Character(Unicode.Scalar(UInt8(32 + generator.next() % 95))) }) }
        for operation in ["records/query", "records/lookup", "records/modify", "zones/lookup", "zones/modify", "changes/zone", "changes/database"] {
            for body in bodies {
                let reply = try await server.call("private", operation, body)
                #expect(reply.status < 500, "\(operation) \(body): \(reply.json)")
                #expect(reply.status == 200 || reply.code != nil, "\(operation) \(body): \(reply.json)")
            }
        }
    }

    @Test func aFolderOfStoresHasOneStorePerContainerAndEnvironment() async throws {
        let server = try await ServerHarness(source: { .folder($0.appendingPathComponent("stores").path) })
        defer { Task { await server.stop() } }
        let folder = server.directory.appendingPathComponent("stores")
        // Each store is made and given credentials before the server opens it, and closed
        // again: one process must not hold two pools on one file.
        var credentials: [String: (String, String)] = [:]
        for (container, environment) in [("iCloud.a", "development"), ("iCloud.a", "production"), ("iCloud.b", "development")] {
            let store = try Store(path: "\(folder.path)/\(container)/\(environment).sqlite", creatingWith: StoreEnvironment(rawValue: environment))
            credentials["\(container)/\(environment)"] = (try store.makeAPIToken(container: container),
                                                          try store.makeWebAuthToken(container: container, user: store.owner))
        }
        for (key, (token, user)) in credentials.sorted(by: { $0.key < $1.key }) {
            let base = "http://127.0.0.1:\(server.port)/database/1/\(key)"
            let zone = "Z" + key.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".", with: "_")
            let made = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "\#(zone)"}}}]}"#,
                                             apiToken: .some(token), webAuthToken: .some(user), base: base)
            #expect(made.status == 200, "\(made.json)")
            let listed = try await server.call("private", "zones/list", apiToken: .some(token), webAuthToken: .some(user), base: base)
            #expect(listed.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String } == ["_defaultZone", zone])
        }
        // A token of one container's store opens nothing in another's.
        let (tokenA, userA) = try #require(credentials["iCloud.a/development"])
        let crossed = try await server.call("private", "zones/list", apiToken: .some(tokenA), webAuthToken: .some(userA),
                                            base: "http://127.0.0.1:\(server.port)/database/1/iCloud.b/development")
        #expect(crossed.status == 401)
        let unsafe = try await server.call("private", "zones/list", base: "http://127.0.0.1:\(server.port)/database/1/..hidden/development")
        #expect(unsafe.status == 400)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("..hidden").path))
    }
}
