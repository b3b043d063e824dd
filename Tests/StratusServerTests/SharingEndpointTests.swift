import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusCloud

/// Users and sharing over real HTTP: each user signs in with their own token, reaches their own
/// private database, resolves and accepts a share, and finds it in their shared database.
@Suite struct SharingEndpointTests {
    @Test func aParticipantResolvesAcceptsAndReadsTheSharedHierarchy() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let store = server.store
        let alice = try store.createUser(alias: "alice"), bob = try store.createUser(alias: "bob")
        let aliceToken = try store.makeWebAuthToken(container: ServerHarness.container, user: alice.recordName)
        let bobToken = try store.makeWebAuthToken(container: ServerHarness.container, user: bob.recordName)
        let trips = ZoneID(zoneName: "Trips")
        let mine = store.database(.private, user: alice.recordName)
        try mine.modifyRecordZones(saving: [trips])
        var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "stop-1", zoneID: trips), fields: ["title": .string("Belém")])
        stop.parent = Reference(recordName: "trip-1")
        _ = try mine.modifyRecords(saving: [
            Record(recordType: "Trip", recordID: RecordID(recordName: "trip-1", zoneID: trips), fields: ["title": .string("Lisbon")]),
            Record(recordType: "Trip", recordID: RecordID(recordName: "other", zoneID: trips)), stop,
        ])
        let share = try mine.createShare(rootRecord: "trip-1", inZoneWith: trips)
        try mine.addParticipant(bob.recordName, permission: .readWrite, toShare: share.url)

        // Bob's own private database has no Trips, even naming alice as owner.
        let zone = #"{"zoneName": "Trips", "ownerRecordName": "\#(alice.recordName)"}"#
        let privateLookup = try await server.call("private", "records/lookup", #"{"zoneID": \#(zone), "records": [{"recordName": "trip-1"}]}"#,
                                                  webAuthToken: .some(bobToken))
        #expect(privateLookup.status == 200)
        #expect(privateLookup.records.first?["serverErrorCode"] as? String == "ZONE_NOT_FOUND")

        let body = #"{"shortGUIDs": [{"value": "\#(share.shortGUID)", "shouldFetchRootRecord": true}, {"value": "nope"}]}"#
        let resolved = try await server.call("public", "records/resolve", body, webAuthToken: .some(bobToken))
        #expect(resolved.status == 200)
        let results = try #require(resolved["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["participantStatus"] as? String == "PENDING")
        #expect(results[0]["databaseScope"] as? String == "SHARED")
        #expect((results[0]["rootRecord"] as? [String: Any])?["recordName"] as? String == "trip-1")
        #expect((results[0]["ownerIdentity"] as? [String: Any])?["userRecordName"] as? String == alice.recordName)
        let shareJSON = try #require(results[0]["share"] as? [String: Any])
        #expect(shareJSON["recordType"] as? String == "cloudkit.share")
        #expect((shareJSON["participants"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["OWNER", "PRIVATE_USER"])
        #expect(results[1]["serverErrorCode"] as? String == "NOT_FOUND")

        let accepted = try await server.call("public", "records/accept", #"{"shortGUIDs": [{"value": "\#(share.shortGUID)"}]}"#, webAuthToken: .some(bobToken))
        #expect(((accepted["results"] as? [[String: Any]])?.first)?["participantStatus"] as? String == "ACCEPTED")

        let changes = try await server.call("shared", "changes/database", "{}", webAuthToken: .some(bobToken))
        let zones = try #require(changes["zones"] as? [[String: Any]])
        #expect(zones.compactMap { ($0["zoneID"] as? [String: Any])?["ownerRecordName"] as? String } == [alice.recordName])
        let query = try await server.call("shared", "records/query", #"{"zoneID": \#(zone), "query": {"recordType": "Trip"}}"#, webAuthToken: .some(bobToken))
        #expect(query.status == 200)
        #expect(query.records.compactMap { $0["recordName"] as? String } == ["trip-1"], "the unshared trip stays hidden")
        let write = try await server.call("shared", "records/modify", #"""
            {"zoneID": \#(zone), "operations": [{"operationType": "create", "record": {"recordName": "stop-2", "recordType": "Stop", "parent": {"recordName": "trip-1"}}}]}
            """#, webAuthToken: .some(bobToken))
        #expect(write.status == 200)
        #expect(write.records.first?["recordName"] as? String == "stop-2")
        #expect(try mine.record(for: RecordID(recordName: "stop-2", zoneID: trips)).creatorUserRecordName == bob.recordName)
        // Alice, as herself, sees her zone in her private database; the owner of the store does not.
        let aliceZones = try await server.call("private", "zones/list", webAuthToken: .some(aliceToken))
        let aliceNames = aliceZones.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String }
        #expect(aliceNames.contains("Trips"))
        let ownerZones = try await server.call("private", "zones/list")
        let ownerNames = ownerZones.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String }
        #expect(!ownerNames.contains("Trips"))
    }

    @Test func anAPITokenAloneReadsWhatTheWorldMayAndWritesNothing() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        _ = try await server.call("public", "records/modify", #"{"operations": [{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note"}}]}"#)
        let read = try await server.call("public", "records/lookup", #"{"records": [{"recordName": "n1"}]}"#, webAuthToken: .some(nil))
        #expect(read.status == 200)
        #expect(read.records.first?["recordName"] as? String == "n1")
        let write = try await server.call("public", "records/modify", #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "n1"}}]}"#,
                                          webAuthToken: .some(nil))
        #expect(write.status == 421)
        let other = try server.store.createUser(alias: "mallory")
        let token = try server.store.makeWebAuthToken(container: ServerHarness.container, user: other.recordName)
        let denied = try await server.call("public", "records/modify", #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "n1"}}]}"#,
                                           webAuthToken: .some(token))
        #expect(denied.status == 200)
        #expect(denied.records.first?["serverErrorCode"] as? String == "ACCESS_DENIED", "another user's public record is the creator's to change")
    }

    @Test func theSignInPageListsTheUsersAndSignsInThePickedOne() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let bob = try server.store.createUser(alias: "bob")
        let signin = "http://127.0.0.1:\(server.port)/signin?container=\(ServerHarness.container)&environment=development"
        let form = try #require(try await server.send(signin, body: nil, method: "GET")["_text"] as? String)
        #expect(form.contains("Sign in as owner (the store&#39;s owner)") || form.contains("Sign in as owner (the store's owner)"))
        #expect(form.contains("Sign in as bob"))
        let shown = try #require(try await server.send(signin + "&user=bob", body: "", method: "POST")["_text"] as? String)
        let token = try #require(shown.components(separatedBy: "<pre id=\"token\">").last?.components(separatedBy: "</pre>").first)
        let current = try await server.call("public", "users/current", webAuthToken: .some(token))
        #expect(current["userRecordName"] as? String == bob.recordName)
        let lookup = try await server.call("public", "users/lookup/id", #"{"users": [{"userRecordName": "\#(bob.recordName)"}]}"#)
        #expect((lookup["users"] as? [[String: Any]])?.count == 1)
        #expect(try await server.send(signin + "&user=zed", body: "", method: "POST").status == 400)
    }
}

/// Shares made and changed with `records/modify`, as Web Services clients make them.
@Suite struct ShareModifyTests {
    @Test func aClientCreatesAShareWithItsRootAndChangesItsParticipants() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let store = server.store
        let bob = try store.createUser(alias: "bob"), carol = try store.createUser(alias: "carol")
        _ = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Trips"}}}]}"#)
        let created = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Trips"}, "operations": [
              {"operationType": "create", "record": {"recordName": "trip-1", "recordType": "Trip", "createShortGUID": true,
                                                     "fields": {"title": {"value": "Lisbon", "type": "STRING"}}}},
              {"operationType": "create", "record": {"recordName": "share-trip-1", "recordType": "cloudKit.share",
                                                     "fields": {"cloudkit.title": {"value": "Lisbon", "type": "STRING"}},
                                                     "forRecord": {"recordName": "trip-1"}, "publicPermission": "NONE",
                                                     "participants": [{"type": "USER", "permission": "READ_WRITE", "acceptanceStatus": "INVITED",
                                                                       "userIdentity": {"userRecordName": "\#(bob.recordName)"}}]}}]}
            """#)
        #expect(created.status == 200)
        #expect(created.records.count == 2)
        let share = created.records[1]
        #expect(share["recordName"] as? String == "share-trip-1")
        #expect(share["recordType"] as? String == "cloudkit.share", "always written with a lower-case k")
        #expect((share["shortGUID"] as? String)?.count == 25)
        let participants = try #require(share["participants"] as? [[String: Any]])
        #expect(participants.compactMap { $0["type"] as? String } == ["OWNER", "PRIVATE_USER"])
        #expect(participants.last?["acceptanceStatus"] as? String == "PENDING")
        let tag = try #require(share["recordChangeTag"] as? String)

        // The owner swaps bob for carol with an update of the share.
        let updated = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Trips"}, "operations": [
              {"operationType": "update", "record": {"recordName": "share-trip-1", "recordType": "cloudkit.share", "recordChangeTag": "\#(tag)",
                                                     "participants": [{"permission": "READ_ONLY", "userIdentity": {"userRecordName": "\#(carol.recordName)"}}]}}]}
            """#)
        let after = try #require(updated.records.first?["participants"] as? [[String: Any]])
        let statuses = after.compactMap { entry -> String? in
            guard let user = (entry["userIdentity"] as? [String: Any])?["userRecordName"] as? String else { return nil }
            return "\(user == bob.recordName ? "bob" : user == carol.recordName ? "carol" : "owner") \(entry["acceptanceStatus"] as? String ?? "")"
        }
        #expect(Set(statuses) == ["owner ACCEPTED", "bob REMOVED", "carol PENDING"])

        // Sharing the same root twice is refused per record; deleting the share record ends it.
        let twice = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Trips"}, "operations": [{"operationType": "create", "record": {"recordName": "again", "recordType": "cloudkit.share", "forRecord": {"recordName": "trip-1"}}}]}
            """#)
        #expect(twice.records.first?["serverErrorCode"] as? String == "EXISTS")
        let noRoot = try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Trips"}, "operations": [{"operationType": "create", "record": {"recordName": "loose", "recordType": "cloudkit.share"}}]}
            """#)
        #expect(noRoot.records.first?["serverErrorCode"] as? String == "BAD_REQUEST")
        let deleted = try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "Trips"}, "operations": [{"operationType": "forceDelete", "record": {"recordName": "share-trip-1"}}]}"#)
        #expect(deleted.records.first?["deleted"] as? Bool == true)
        #expect(try store.database(.private).shares().owned.isEmpty)
    }
}

/// `assets/rereference` and `users/lookup/contacts`.
@Suite struct RereferenceAndContactsTests {
    @Test func anAssetOfOneRecordIsReusedInAnother() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let asset = try server.store.putAsset(Data("shared picture 🖼️".utf8))
        try server.store.database(.private).save(Record(recordType: "Photo", recordID: RecordID(recordName: "p1"),
                                                        fields: ["image": .asset(asset), "thumbs": .list(.asset, [.asset(asset), .asset(asset)]),
                                                                 "title": .string("x")]))
        let reply = try await server.call("private", "assets/rereference", #"""
            {"assets": [{"recordName": "p1", "fieldName": "image"}, {"recordName": "p1", "fieldName": "thumbs"},
                        {"recordName": "p1", "fieldName": "title"}, {"recordName": "nope", "fieldName": "image"}]}
            """#)
        #expect(reply.status == 200)
        let assets = try #require(reply["assets"] as? [[String: Any]])
        #expect(assets.count == 5, "one, two list elements, two errors")
        #expect(assets[0]["fileChecksum"] as? String == asset.fileChecksum)
        #expect((assets[0]["downloadURL"] as? String)?.contains("/assets/download/") == true)
        #expect(assets[2]["index"] as? Int == 1)
        #expect(assets[3]["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect(assets[4]["serverErrorCode"] as? String == "NOT_FOUND")
        // The value goes into another record as it is.
        let value = String(decoding: try JSONSerialization.data(withJSONObject: assets[0].filter { !["recordName", "fieldName", "downloadURL"].contains($0.key) }), as: UTF8.self)
        let saved = try await server.call("private", "records/modify", #"""
            {"operations": [{"operationType": "create", "record": {"recordName": "p2", "recordType": "Photo", "fields": {"image": {"value": \#(value), "type": "ASSET"}}}}]}
            """#)
        #expect(saved.records.first?["serverErrorCode"] == nil, "\(saved.json)")
        #expect(try await server.call("private", "assets/rereference", #"{"assets": [{"recordName": "p1"}]}"#).status == 400)
    }

    @Test func contactsAreTheOtherUsersOfTheStore() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let ada = try server.store.createUser(alias: "ada")
        let reply = try await server.call("public", "users/lookup/contacts", "{}")
        let users = try #require(reply["users"] as? [[String: Any]])
        #expect(users.compactMap { $0["userRecordName"] as? String } == [ada.recordName], "everyone but the caller")
        #expect(((users.first?["nameComponents"] as? [String: Any])?["nickname"] as? String) == "ada")
        #expect(try await server.call("public", "users/lookup/contacts", "{}", webAuthToken: .some(nil)).status == 421)
    }
}
