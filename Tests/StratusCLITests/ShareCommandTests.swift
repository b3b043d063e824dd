import Foundation
import Testing

/// The share flow end to end through the real binary: users, a share, an invitation, an
/// acceptance, the shared database, a removal.
@Suite(.serialized) struct ShareCommandTests {
    @Test func ownerSharesParticipantAcceptsAndLosesAccessWhenRemoved() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        for alias in ["alice", "bob", "dave"] { #expect(try cli.run(["users", "create", alias]).status == 0) }
        let users = try cli.json(["users", "--json"])["users"] as? [[String: Any]] ?? []
        #expect(users.compactMap { $0["alias"] as? String } == ["owner", "alice", "bob", "dave"])

        #expect(try cli.run(["zones", "create", "Trips", "--user", "alice"]).status == 0)
        let trip = #"{"recordName": "trip-1", "recordType": "Trip", "fields": {"title": {"value": "Lisbon 🇵🇹", "type": "STRING"}}}"#
        let stop = #"{"recordName": "stop-1", "recordType": "Stop", "parent": {"recordName": "trip-1"}, "fields": {"title": {"value": "Belém", "type": "STRING"}}}"#
        let other = #"{"recordName": "other", "recordType": "Trip"}"#
        for record in [trip, stop, other] {
            #expect(try cli.run(["save", "--user", "alice", "--zone", "Trips"], stdin: record).status == 0)
        }
        let created = try cli.run(["share", "create", "--record", "trip-1", "--zone", "Trips", "--user", "alice"])
        #expect(created.status == 0)
        let url = try #require(created.stdout.split(separator: "\n").first.map(String.init))
        #expect(url.hasPrefix("https://www.icloud.com/share/"))
        #expect(created.stdout.contains("share record Share-"))

        // Not invited: refused. Invited: the zone shows in bob's shared database.
        let refused = try cli.run(["share", "accept", url, "--user", "dave"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("permissionFailure (10)"))
        #expect(try cli.run(["share", "add", url, "--participant", "bob", "--permission", "read-only", "--user", "alice"]).status == 0)
        let accepted = try cli.run(["share", "accept", url, "--user", "bob"])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.contains("zone Trips of alice"))
        let query = try cli.json(["query", "--type", "Stop", "--db", "shared", "--zone", "Trips", "--user", "bob", "--json"])
        #expect((query["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["stop-1"])
        let hidden = try cli.run(["fetch", "other", "--db", "shared", "--zone", "Trips", "--user", "bob"])
        #expect(hidden.status == 1)
        #expect(hidden.stderr.contains("unknownItem"))
        let readOnly = try cli.run(["save", "--db", "shared", "--zone", "Trips", "--user", "bob"],
                                   stdin: #"{"recordName": "stop-2", "recordType": "Stop", "parent": {"recordName": "trip-1"}}"#)
        #expect(readOnly.status == 1)
        #expect(readOnly.stdout.contains("permissionFailure") || readOnly.stderr.contains("permissionFailure"))

        let list = try cli.json(["share", "list", "--user", "alice", "--json"])
        let owned = try #require((list["owned"] as? [[String: Any]])?.first)
        let participants = owned["participants"] as? [[String: Any]] ?? []
        #expect(participants.compactMap { $0["acceptanceStatus"] as? String } == ["ACCEPTED", "ACCEPTED"])
        #expect(participants.compactMap { $0["permission"] as? String } == ["READ_WRITE", "READ_ONLY"])

        let token = try cli.run(["token", "--database", "--db", "shared", "--user", "bob"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(["share", "remove", url, "--participant", "bob", "--user", "alice"]).status == 0)
        let changes = try cli.run(["changes", "--database", "--db", "shared", "--user", "bob", "--since", token])
        #expect(changes.stdout.contains("deleted  Trips"))
        let gone = try cli.run(["query", "--type", "Stop", "--db", "shared", "--zone", "Trips", "--user", "bob"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("zoneNotFound"))
    }

    @Test func usersGetRolesAndNoUserReadsOnlyWhatTheWorldMay() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let schema = cli.directory.appendingPathComponent("schema.ckdb")
        try #"""
            DEFINE SCHEMA
                CREATE ROLE Editor;
                RECORD TYPE Board ("___recordID" REFERENCE QUERYABLE, title STRING, GRANT READ TO "_world", GRANT CREATE, WRITE TO "Editor");
            """#.write(to: schema, atomically: true, encoding: .utf8)
        #expect(try cli.run(["schema", "import", schema.path]).status == 0)
        #expect(try cli.run(["users", "create", "eddie"]).status == 0)
        let board = #"{"recordName": "b1", "recordType": "Board", "fields": {"title": {"value": "hi", "type": "STRING"}}}"#
        let refused = try cli.run(["save", "--db", "public", "--user", "eddie"], stdin: board)
        #expect(refused.status == 1)
        #expect((refused.stdout + refused.stderr).contains("CREATE operation not permitted on record type 'Board'"))
        let granted = try cli.run(["users", "grant", "Editor", "eddie"])
        #expect(granted.status == 0)
        #expect(granted.stdout.contains("eddie now holds Editor"))
        #expect(try cli.run(["save", "--db", "public", "--user", "eddie"], stdin: board).status == 0)
        let anonymous = try cli.json(["query", "--type", "Board", "--db", "public", "--user", "none", "--json"])
        #expect((anonymous["records"] as? [[String: Any]])?.count == 1)
        let anonymousWrite = try cli.run(["save", "--db", "public", "--user", "none"], stdin: board)
        #expect(anonymousWrite.status == 1)
        #expect((anonymousWrite.stdout + anonymousWrite.stderr).contains("notAuthenticated"))
        let badRole = try cli.run(["users", "grant", "Admin", "eddie"])
        #expect(badRole.status == 1)
        #expect(badRole.stderr.contains("the schema's roles are Editor"))
        let current = try cli.json(["users", "current", "--user", "eddie", "--json"])
        #expect((current["userRecordName"] as? String)?.count == 33)
    }
}

/// `save --owner-map`: a document captured from iCloud names zones of several owners; each
/// lands with the user of this store it is mapped to.
@Suite(.serialized) struct OwnerMapTests {
    @Test func zonesOfEachOwnerLandWithTheirUser() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["users", "create", "alice"]).status == 0)
        let document = #"""
            {"zones": [
              {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_aaaa1111aaaa1111aaaa1111aaaa1111"},
               "records": [{"recordName": "a1", "recordType": "Note", "fields": {"title": {"value": "Alice's", "type": "STRING"}}}]},
              {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_bbbb2222bbbb2222bbbb2222bbbb2222"},
               "records": [{"recordName": "b1", "recordType": "Note", "fields": {"title": {"value": "the owner's", "type": "STRING"}}}]}
            ]}
            """#
        let saved = try cli.run(["save", "--create-zones", "--owner-map", "_aaaa1111aaaa1111aaaa1111aaaa1111=alice"], stdin: document)
        #expect(saved.status == 0, "\(saved.stderr)")
        let alices = try cli.json(["query", "--type", "Note", "--zone", "Notes", "--user", "alice", "--json"])
        #expect((alices["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["a1"])
        let owners = try cli.json(["query", "--type", "Note", "--zone", "Notes", "--json"])
        #expect((owners["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["b1"])
        let bad = try cli.run(["save", "--owner-map", "nobody"], stdin: document)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--owner-map takes OWNER=ALIAS"))
        let unknown = try cli.run(["save", "--owner-map", "_x=zed"], stdin: document)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No user 'zed'"))
    }
}

/// `changes` prints the fields each change touched.
@Suite(.serialized) struct ChangedKeysCommandTests {
    @Test func changesListTheChangedKeys() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "a", "type": "STRING"}, "body": {"value": "b", "type": "STRING"}}}"#).status == 0)
        let token = try cli.run(["token", "--zone", "Notes"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(["save", "--zone", "Notes", "--policy", "changed-keys"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"body": {"value": "c", "type": "STRING"}}}"#).status == 0)
        let json = try cli.json(["changes", "--zone", "Notes", "--since", token, "--json"])
        let record = try #require((json["records"] as? [[String: Any]])?.first)
        #expect(record["changedKeys"] as? [String] == ["body"])
        let text = try cli.run(["changes", "--zone", "Notes", "--since", token]).stdout
        #expect(text.contains("changed: body"))
    }
}
