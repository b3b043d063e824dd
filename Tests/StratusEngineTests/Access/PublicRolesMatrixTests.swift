import Foundation
import Testing
import StratusModel
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// The public database's security roles as no user, a signed-in user, the record's creator and
/// a holder of a custom role, with CloudKit's result in each cell.
@Suite(.onEveryBackend) struct PublicRolesMatrixTests {
    private static let schema = #"""
        DEFINE SCHEMA
            CREATE ROLE Editor;
            RECORD TYPE Note (title STRING QUERYABLE, GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world");
            RECORD TYPE Diary ("___recordID" REFERENCE QUERYABLE, title STRING QUERYABLE, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud");
            RECORD TYPE Board (title STRING QUERYABLE, GRANT READ TO "_world", GRANT CREATE, WRITE TO "Editor");
        """#

    private final class Fixture {
        let temp: TemporaryStore
        let alice: StoreUser, dave: StoreUser, eddie: StoreUser

        init() throws {
            temp = try TemporaryStore()
            _ = try temp.store.importSchema(text: PublicRolesMatrixTests.schema)
            alice = try temp.store.createUser(alias: "alice")
            dave = try temp.store.createUser(alias: "dave")
            eddie = try temp.store.createUser(alias: "eddie")
            try temp.store.grant(role: "Editor", to: "eddie")
            let aliceDB = database(alice)
            try aliceDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "note-a"), fields: ["title": .string("a")]))
            try aliceDB.save(Record(recordType: "Diary", recordID: RecordID(recordName: "diary-a"), fields: ["title": .string("a")]))
            try database(eddie).save(Record(recordType: "Board", recordID: RecordID(recordName: "board-e"), fields: ["title": .string("e")]))
        }

        func database(_ user: StoreUser?) -> CloudDatabase {
            temp.store.database(.public, caller: user.map { .user($0.recordName) } ?? .anonymous)
        }

        /// no user, a signed-in user (dave), the creator (alice), a holder of Editor (eddie).
        func cells(_ operation: (String, CloudDatabase) throws -> Void) -> [String: String] {
            var result: [String: String] = [:]
            for (name, user) in [("none", nil), ("dave", dave), ("alice", alice), ("eddie", eddie)] as [(String, StoreUser?)] {
                result[name] = SharedStoreFixture.outcome { try operation(name, database(user)) }
            }
            return result
        }
    }

    private func update(_ db: CloudDatabase, _ name: String) throws {
        var record = try db.store.database(.public).record(for: RecordID(recordName: name))
        record["title"] = .string("changed by someone")
        _ = try db.modifyRecords(saving: [record], savePolicy: .allKeys).saveResults[0].result.get()
    }

    @Test func worldReadableCreatorWritable() throws {
        let fixture = try Fixture()
        let reads = fixture.cells { _, db in _ = try db.record(for: RecordID(recordName: "note-a")) }
        #expect(reads == ["none": "ok", "dave": "ok", "alice": "ok", "eddie": "ok"])
        let creates = fixture.cells { name, db in try db.save(Record(recordType: "Note", recordID: RecordID(recordName: "note-\(name)"))) }
        #expect(creates == ["none": "notAuthenticated", "dave": "ok", "alice": "ok", "eddie": "ok"])
        let updates = fixture.cells { _, db in try update(db, "note-a") }
        #expect(updates == ["none": "notAuthenticated", "dave": "permissionFailure", "alice": "ok", "eddie": "permissionFailure"])
        let deletes = fixture.cells { name, db in
            if name != "alice" { try db.deleteRecord(withID: RecordID(recordName: "note-a")) }
        }
        #expect(deletes == ["none": "notAuthenticated", "dave": "permissionFailure", "alice": "ok", "eddie": "permissionFailure"])
        #expect(SharedStoreFixture.outcome { try fixture.database(fixture.alice).deleteRecord(withID: RecordID(recordName: "note-a")) } == "ok")
    }

    @Test func creatorOnlyReadsAreFilteredFromQueriesAndRefusedByID() throws {
        let fixture = try Fixture()
        try fixture.database(fixture.dave).save(Record(recordType: "Diary", recordID: RecordID(recordName: "diary-d"), fields: ["title": .string("d")]))
        var found: [String: [String]] = [:]
        let queries = fixture.cells { name, db in
            found[name] = try db.records(matching: Query(recordType: "Diary")).records.map(\.recordName)
        }
        #expect(queries == ["none": "ok", "dave": "ok", "alice": "ok", "eddie": "ok"])
        #expect(found == ["none": [], "dave": ["diary-d"], "alice": ["diary-a"], "eddie": []])
        let fetches = fixture.cells { _, db in _ = try db.record(for: RecordID(recordName: "diary-a")) }
        #expect(fetches == ["none": "permissionFailure", "dave": "permissionFailure", "alice": "ok", "eddie": "permissionFailure"])
        let exported = try fixture.database(fixture.dave).exportCount()
        var lines = 0
        try fixture.database(fixture.dave).exportRecords(write: { lines += String(decoding: $0, as: UTF8.self).split(separator: "\n").count })
        #expect(lines < exported, "an export carries only what the caller may read")
    }

    @Test func customRolesGrantWhatTheyAreGiven() throws {
        let fixture = try Fixture()
        let creates = fixture.cells { name, db in try db.save(Record(recordType: "Board", recordID: RecordID(recordName: "board-\(name)"))) }
        #expect(creates == ["none": "notAuthenticated", "dave": "permissionFailure", "alice": "permissionFailure", "eddie": "ok"])
        let updates = fixture.cells { _, db in try update(db, "board-e") }
        #expect(updates == ["none": "notAuthenticated", "dave": "permissionFailure", "alice": "permissionFailure", "eddie": "ok"])
        let refusal = #expect(throws: CloudKitError.self) {
            try fixture.database(fixture.dave).save(Record(recordType: "Board", recordID: RecordID(recordName: "b2")))
        }
        #expect(refusal?.code == .permissionFailure)
        #expect(refusal?.message.contains("CREATE") == true)
        #expect(refusal?.message.contains("'Board'") == true)
        #expect(refusal?.message.contains("Editor") == true, "the reason names the roles that would grant it")
        try fixture.temp.store.revoke(role: "Editor", from: "eddie")
        #expect(SharedStoreFixture.outcome { try update(fixture.database(fixture.eddie), "board-e") } == "permissionFailure")
        #expect(SharedStoreFixture.outcome { try fixture.temp.store.grant(role: "Admin", to: "eddie") } == "invalidArguments")
    }

    @Test func typesWithoutGrantsTakeCloudKitsDefaultsInDevelopmentOnly() throws {
        let fixture = try Fixture()
        let creates = fixture.cells { name, db in try db.save(Record(recordType: "Fresh", recordID: RecordID(recordName: "fresh-\(name)"))) }
        #expect(creates == ["none": "notAuthenticated", "dave": "ok", "alice": "ok", "eddie": "ok"])
        let updates = fixture.cells { _, db in try update(db, "fresh-dave") }
        #expect(updates == ["none": "notAuthenticated", "dave": "ok", "alice": "permissionFailure", "eddie": "permissionFailure"])
        // Users records are CloudKit's: readable by all, written by their user, made by no one.
        let usersCreate = SharedStoreFixture.outcome {
            try fixture.database(fixture.dave).save(Record(recordType: "Users", recordID: RecordID(recordName: "_0123456789abcdef0123456789abcdef")))
        }
        #expect(usersCreate == "permissionFailure")
        #expect(SharedStoreFixture.outcome { _ = try fixture.database(nil).record(for: RecordID(recordName: fixture.alice.recordName)) } == "ok")

        let production = try TemporaryStore(environment: .production)
        _ = try production.store.importSchema(text: "DEFINE SCHEMA RECORD TYPE Bare (title STRING);")
        let refused = SharedStoreFixture.outcome { try production.store.database(.public).save(Record(recordType: "Bare")) }
        #expect(refused == "permissionFailure", "a production type with no grants is unusable in the public database")
    }

    @Test func subscriptionsOfTheCreatorOnlyTypeFireForWhoMayRead() throws {
        let fixture = try Fixture()
        for user in [fixture.alice, fixture.dave] {
            try fixture.database(user).save(Subscription.query("Diary", subscriptionID: "diary-\(user.alias)", options: .firesOnAnyChange))
        }
        #expect(SharedStoreFixture.outcome { try fixture.database(nil).save(Subscription.query("Note", options: .firesOnAnyChange)) } == "notAuthenticated")
        try fixture.database(fixture.alice).save(Record(recordType: "Diary", recordID: RecordID(recordName: "diary-a2")))
        #expect(try fixture.database(fixture.alice).notifications(includingOwnDevice: true).map(\.subscriptionID) == ["diary-alice"])
        #expect(try fixture.database(fixture.dave).notifications(includingOwnDevice: true).isEmpty, "dave may not read alice's diary")
    }

    @Test func theRestOfTheOperationsInThePublicDatabase() throws {
        let fixture = try Fixture()
        // One database for everyone: the same zones whoever asks.
        var zones: [String: [String]] = [:]
        let listed = fixture.cells { name, db in zones[name] = try db.allRecordZones().map(\.zoneID.zoneName) }
        #expect(listed == ["none": "ok", "dave": "ok", "alice": "ok", "eddie": "ok"])
        #expect(Set(zones.values.map { $0 }) == [["_defaultZone"]])
        // No change feed in the public database (CloudKit's rule), for anyone.
        let feeds = fixture.cells { _, db in _ = try db.databaseChanges() }
        #expect(feeds == ["none": "invalidArguments", "dave": "invalidArguments", "alice": "invalidArguments", "eddie": "invalidArguments"])
        let tokens = fixture.cells { _, db in _ = try db.currentToken(for: .default) }
        #expect(tokens == ["none": "invalidArguments", "dave": "invalidArguments", "alice": "invalidArguments", "eddie": "invalidArguments"])
        // Subscriptions belong to signed-in users.
        let subscriptions = fixture.cells { name, db in try db.save(Subscription.query("Note", predicateFormat: "title == 'a'", subscriptionID: "s-\(name)", options: .firesOnAnyChange)) }
        #expect(subscriptions == ["none": "notAuthenticated", "dave": "ok", "alice": "ok", "eddie": "ok"])
        #expect(try fixture.database(fixture.dave).allSubscriptions().map(\.subscriptionID) == ["s-dave"], "each user lists their own")
    }
}
