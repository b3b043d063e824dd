import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// Users of a store: aliases, user record names, `Users` records, and stores made before users.
@Suite(.onEveryBackend) struct StoreUsersTests {
    @Test func usersHaveRecordNamesAliasesAndUsersRecords() throws {
        let temp = try TemporaryStore()
        let store = temp.store
        #expect(try store.users().map(\.alias) == ["owner"])
        #expect(try store.users().first?.isOwner == true)
        let alice = try store.createUser(alias: "alice")
        #expect(StoreUser.isRecordName(alice.recordName))
        #expect(try store.user(named: "ALICE").recordName == alice.recordName, "aliases ignore case")
        #expect(try store.user(named: alice.recordName).alias == "alice")
        #expect(try store.caller(named: "alice") == .user(alice.recordName))
        #expect(try store.caller(named: "none") == .anonymous)
        let users = try store.database(.public, caller: .anonymous).record(for: RecordID(recordName: alice.recordName))
        #expect(users.recordType == "Users")
        #expect(users.creatorUserRecordName == alice.recordName)
        #expect(try store.database(.private, user: alice.recordName).allRecordZones().map(\.zoneID) == [.default])

        let duplicate = #expect(throws: CloudKitError.self) { try store.createUser(alias: "Alice") }
        #expect(duplicate?.code == .constraintViolation)
        for bad in ["", "none", "_x", "a b", String(repeating: "a", count: 65)] {
            #expect(throws: CloudKitError.self, "alias \(bad.debugDescription)") { try store.createUser(alias: bad) }
        }
        let unknown = #expect(throws: CloudKitError.self) { try store.caller(named: "zed") }
        #expect(unknown?.code == .unknownItem)
        #expect(unknown?.message.contains("owner, alice") == true, "the error lists who there is")
        // A user record name seen for the first time is a new user, as at a first sign-in.
        let newcomer = "_0123456789abcdef0123456789abcdef"
        #expect(try store.caller(named: newcomer) == .user(newcomer))
        #expect(try store.users().contains { $0.recordName == newcomer })
    }

    @Test func noUserReachesNoPrivateOrSharedDatabase() throws {
        let temp = try TemporaryStore()
        for scope in [DatabaseScope.private, .shared] {
            let db = temp.store.database(scope, caller: .anonymous)
            let refused = #expect(throws: CloudKitError.self) { _ = try db.allRecordZones() }
            #expect(refused?.code == .notAuthenticated)
            #expect(refused?.code.serverErrorCode == "AUTHENTICATION_REQUIRED")
        }
    }

    @Test(.sqliteOnly("a migration of an old SQLite file")) func aStoreMadeBeforeUsersUpgradesToItsOwnerAndKeepsItsTokens() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone)))
        let zoneToken = try temp.privateDB.currentToken(for: zone)
        let databaseToken = try temp.privateDB.currentDatabaseToken()
        let path = temp.path
        // Take the store back to before users: no user or share tables, zones of no one.
        try temp.store.write { db in
            try db.sqlite.execute(sql: """
                DROP TABLE user; DROP TABLE share; DROP TABLE share_participant;
                DELETE FROM grdb_migrations WHERE identifier IN ('v10-users', 'v11-sharing');
                UPDATE zone SET owner = '__defaultOwner__';
                DELETE FROM record WHERE type_id = (SELECT id FROM record_type WHERE name = 'Users');
                """)
        }
        let reopened = try Store(path: path)
        let owner = reopened.database(.private)
        #expect(try owner.allRecordZones().map(\.zoneID.zoneName) == ["_defaultZone", "Notes"], "what existed is the owner's")
        try owner.save(Record(recordType: "Note", recordID: RecordID(recordName: "n2", zoneID: zone)))
        #expect(try owner.recordZoneChanges(inZoneWith: zone, since: zoneToken).changes.map(\.recordID.recordName) == ["n2"], "old zone tokens stay valid")
        #expect(try owner.databaseChanges(since: databaseToken).changedZoneIDs == [zone], "old database tokens stay valid")
        #expect(try reopened.users().map(\.alias) == ["owner"])
        #expect(try reopened.database(.public).record(for: RecordID(recordName: reopened.owner)).recordType == "Users")
        let stranger = try reopened.createUser(alias: "stranger")
        #expect(try reopened.database(.private, user: stranger.recordName).allRecordZones().map(\.zoneID) == [.default])
    }
}
