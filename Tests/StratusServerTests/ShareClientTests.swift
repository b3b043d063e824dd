import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import Testing

/// Sharing as CloudKit JS v2 does it from both sides, over real HTTP: the share record reads the
/// same however it is fetched, a participant leaves by deleting it, and the participant values
/// are CloudKit JS's.
@Suite struct ShareClientTests {
    private struct People {
        let alice: StoreUser, bob: StoreUser, carol: StoreUser
        let aliceToken: String, bobToken: String, carolToken: String
    }

    private func people(_ server: ServerHarness) throws -> People {
        let store = server.store
        let alice = try store.createUser(alias: "alice"), bob = try store.createUser(alias: "bob"), carol = try store.createUser(alias: "carol")
        func token(_ user: StoreUser) throws -> String { try store.makeWebAuthToken(container: ServerHarness.container, user: user.recordName) }
        return People(alice: alice, bob: bob, carol: carol, aliceToken: try token(alice), bobToken: try token(bob), carolToken: try token(carol))
    }

    /// Alice shares trip-1 with bob (read-write) and carol (read-only) in one request, as
    /// CloudKit JS's `saveRecords` of a root and its share does.
    private func share(_ server: ServerHarness, _ people: People) async throws -> ServerHarness.Reply {
        _ = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Trips"}}}]}"#,
                                  webAuthToken: .some(people.aliceToken))
        return try await server.call("private", "records/modify", #"""
            {"zoneID": {"zoneName": "Trips"}, "operations": [
              {"operationType": "create", "record": {"recordName": "trip-1", "recordType": "Trip", "createShortGUID": true,
                                                     "fields": {"title": {"value": "Lisbon"}}}},
              {"operationType": "create", "record": {"recordName": "share-trip-1", "recordType": "cloudkit.share",
                "fields": {"cloudkit.title": {"value": "Lisbon"}, "cloudkit.type": {"value": "com.example.trip"}},
                "forRecord": {"recordName": "trip-1"}, "publicPermission": "NONE",
                "participants": [
                  {"type": "PRIVATE_USER", "permission": "READ_WRITE", "acceptanceStatus": "PENDING", "userIdentity": {"userRecordName": "\#(people.bob.recordName)"}},
                  {"type": "PRIVATE_USER", "permission": "READ_ONLY", "acceptanceStatus": "PENDING", "userIdentity": {"userRecordName": "\#(people.carol.recordName)"}}]}}]}
            """#, webAuthToken: .some(people.aliceToken))
    }

    private func shareKeys(_ record: [String: Any]?) -> String {
        guard let record else { return "none" }
        let participants = (record["participants"] as? [[String: Any]])?.map { "\($0["type"] ?? "")/\($0["acceptanceStatus"] ?? "")/\($0["permission"] ?? "")" }
        return "\(record["publicPermission"] ?? "-") \(participants ?? []) owner:\(record["owner"] != nil) guid:\(record["shortGUID"] ?? "-")"
    }

    @Test func aShareRecordReadsTheSameHoweverItIsFetched() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let people = try people(server)
        let created = try await share(server, people)
        #expect(created.records.count == 2, "\(created.json)")
        let root = created.records[0], shareRecord = created.records[1]
        let guid = try #require(shareRecord["shortGUID"] as? String, "\(created.json)")
        #expect(root["shortGUID"] as? String == guid, "createShortGUID answers the GUID the share carries")
        let participants = try #require(shareRecord["participants"] as? [[String: Any]])
        #expect(participants.compactMap { $0["type"] as? String } == ["OWNER", "PRIVATE_USER", "PRIVATE_USER"])
        #expect(participants.compactMap { $0["acceptanceStatus"] as? String } == ["ACCEPTED", "PENDING", "PENDING"])
        let created_ = shareKeys(shareRecord)

        // Alice looks both up.
        let lookup = try await server.call("private", "records/lookup", #"{"zoneID": {"zoneName": "Trips"}, "records": [{"recordName": "share-trip-1"}, {"recordName": "trip-1"}]}"#,
                                           webAuthToken: .some(people.aliceToken))
        #expect(shareKeys(lookup.records.first) == created_, "\(lookup.json)")
        #expect(((lookup.records.first?["fields"] as? [String: Any])?["cloudkit.type"] as? [String: Any])?["value"] as? String == "com.example.trip")
        #expect((lookup.records.first?["currentUserParticipant"] as? [String: Any])?["type"] as? String == "OWNER")
        #expect((lookup.records.last?["share"] as? [String: Any])?["recordName"] as? String == "share-trip-1", "\(lookup.json)")
        #expect(lookup.records.last?["shortGUID"] as? String == guid)

        // Bob accepts and reads the zone's changes in his shared database.
        let accepted = try await server.call("public", "records/accept", #"{"shortGUIDs": [{"value": "\#(guid)"}]}"#, webAuthToken: .some(people.bobToken))
        #expect(((accepted["results"] as? [[String: Any]])?.first?["participantStatus"]) as? String == "ACCEPTED")
        let zone = #"{"zoneName": "Trips", "ownerRecordName": "\#(people.alice.recordName)"}"#
        let changes = try await server.call("shared", "changes/zone", #"{"zones": [{"zoneID": \#(zone)}]}"#, webAuthToken: .some(people.bobToken))
        let records = try #require((changes.zones.first?["records"] as? [[String: Any]]), "\(changes.json)")
        let seenShare = records.first { $0["recordName"] as? String == "share-trip-1" }
        #expect(seenShare?["publicPermission"] as? String == "NONE", "\(records)")
        #expect((seenShare?["participants"] as? [[String: Any]])?.count == 3)
        let mine = try #require(seenShare?["currentUserParticipant"] as? [String: Any])
        #expect((mine["userIdentity"] as? [String: Any])?["userRecordName"] as? String == people.bob.recordName)
        #expect(mine["acceptanceStatus"] as? String == "ACCEPTED")
        let seenRoot = records.first { $0["recordName"] as? String == "trip-1" }
        #expect((seenRoot?["share"] as? [String: Any])?["recordName"] as? String == "share-trip-1")
        let query = try await server.call("shared", "records/query", #"{"zoneID": \#(zone), "query": {"recordType": "Trip"}}"#, webAuthToken: .some(people.bobToken))
        #expect((query.records.first?["share"] as? [String: Any])?["recordName"] as? String == "share-trip-1", "\(query.json)")
    }

    @Test func participantsLeaveByDeletingTheShareInTheirSharedDatabase() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let people = try people(server)
        let created = try await share(server, people)
        let guid = try #require(created.records.last?["shortGUID"] as? String, "\(created.json)")
        let zone = #"{"zoneName": "Trips", "ownerRecordName": "\#(people.alice.recordName)"}"#
        for (token, who) in [(people.bobToken, "read-write bob"), (people.carolToken, "read-only carol")] {
            _ = try await server.call("public", "records/accept", #"{"shortGUIDs": [{"value": "\#(guid)"}]}"#, webAuthToken: .some(token))
            let left = try await server.call("shared", "records/modify",
                                             #"{"zoneID": \#(zone), "operations": [{"operationType": "forceDelete", "record": {"recordName": "share-trip-1"}}]}"#,
                                             webAuthToken: .some(token))
            #expect(left.status == 200, "\(who): \(left.json)")
            #expect(left.records.first?["deleted"] as? Bool == true, "\(who): \(left.json)")
            let after = try await server.call("shared", "records/lookup", #"{"zoneID": \#(zone), "records": [{"recordName": "trip-1"}]}"#, webAuthToken: .some(token))
            #expect(after.records.first?["recordName"] as? String == "trip-1" && after.records.first?["fields"] == nil, "\(who) no longer reads the trip: \(after.json)")
        }
        // The share stays, for its owner, with both of them removed.
        let share = try server.store.database(.private, user: people.alice.recordName).share(guid)
        #expect(share.participants.filter { $0.type != .owner }.map(\.status) == [.removed, .removed])
    }

    @Test func zoneChangesKeepToTheDesiredRecordTypes() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let db = server.store.database(.private)
        let notes = ZoneID(zoneName: "Notes")
        try db.modifyRecordZones(saving: [notes])
        _ = try db.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "n", zoneID: notes)),
                                          Record(recordType: "Tag", recordID: RecordID(recordName: "t", zoneID: notes))]).savedRecords()
        let both = [#"{"desiredRecordTypes": ["Note"], "zones": [{"zoneID": {"zoneName": "Notes"}}]}"#,
                    #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "desiredRecordTypes": ["Note"]}]}"#]
        for body in both {
            let changes = try await server.call("private", "changes/zone", body)
            let names = (changes.zones.first?["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String }
            #expect(names == ["n"], "\(body): \(changes.json)")
        }
        let all = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}}]}"#)
        #expect((all.zones.first?["records"] as? [[String: Any]])?.count == 2)
    }

    @Test func keysCKWSDocumentsComeBack() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        // A conflict's server record names its zone as every other record does.
        let notes = #"{"zoneName": "Notes"}"#
        _ = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": \#(notes)}}]}"#)
        _ = try await server.call("private", "records/modify", #"{"zoneID": \#(notes), "operations": [{"operationType": "create", "record": {"recordName": "n", "recordType": "Note"}}]}"#)
        let stale = try await server.call("private", "records/modify",
                                          #"{"zoneID": \#(notes), "operations": [{"operationType": "update", "record": {"recordName": "n", "recordType": "Note", "recordChangeTag": "stale"}}]}"#)
        #expect(stale.records.first?["serverErrorCode"] as? String == "CONFLICT", "\(stale.json)")
        let zoneID = try #require((stale.records.first?["serverRecord"] as? [String: Any])?["zoneID"] as? [String: Any], "\(stale.json)")
        #expect(zoneID["ownerRecordName"] as? String == server.store.owner)
        #expect(zoneID["zoneType"] as? String == "REGULAR_CUSTOM_ZONE")

        // notificationInfo's localization keys.
        let info = #"{"alertLocalizationKey": "NOTE_ADDED", "alertLocalizationArgs": ["title"], "alertActionLocalizationKey": "OPEN", "alertLaunchImage": "launch.png", "shouldBadge": true}"#
        let saved = try await server.call("private", "subscriptions/modify", #"""
            {"operations": [{"operationType": "create", "subscription": {"subscriptionID": "notes", "subscriptionType": "zone", "zoneID": \#(notes), "notificationInfo": \#(info)}}]}
            """#)
        let looked = try await server.call("private", "subscriptions/lookup", #"{"subscriptions": [{"subscriptionID": "notes"}]}"#)
        for reply in [saved, looked] {
            let echoed = try #require((reply["subscriptions"] as? [[String: Any]])?.first?["notificationInfo"] as? [String: Any], "\(reply.json)")
            #expect(echoed["alertLocalizationKey"] as? String == "NOTE_ADDED")
            #expect(echoed["alertLocalizationArgs"] as? [String] == ["title"])
            #expect(echoed["alertActionLocalizationKey"] as? String == "OPEN")
            #expect(echoed["alertLaunchImage"] as? String == "launch.png")
        }

        // A damaged token is refused in CloudKit's words.
        let damaged = try await server.call("private", "changes/zone", #"{"zones": [{"zoneID": \#(notes), "syncToken": "not-a-token!"}]}"#)
        let reason = try #require(damaged.zones.first?["reason"] as? String, "\(damaged.json)")
        #expect(!reason.contains("Stratus"), "\(reason)")
    }
}
