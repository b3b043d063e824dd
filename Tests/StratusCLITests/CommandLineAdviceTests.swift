import Foundation
import Testing

/// The command line adds its own advice to the engine's CloudKit errors.
@Suite(.serialized) struct CommandLineAdviceTests {
    @Test func errorsGetAHintOfWhatToTypeNext() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.makeStore()
        let zone = try cli.run(["token", "--zone", "Nowhere"])
        #expect(zone.status == 1)
        #expect(zone.stderr.contains("error: zoneNotFound (26): Zone 'Nowhere' does not exist in the private database.\nhint: list zones with `stratus zones`"))
        let feed = try cli.run(["changes"])
        #expect(feed.stderr.contains("hint: pick a custom zone with --zone NAME"))
        let subscription = try cli.run(["subscriptions", "delete", "nope"])
        #expect(subscription.stderr.contains("hint: list them with `stratus subscriptions`"))
        let asFolder = try cli.run(["zones", "--store", cli.directory.path], store: false)
        #expect(asFolder.stderr.contains("hint: give --store a file, e.g. \(cli.directory.path)/store.sqlite"))
    }
}

@Suite struct CheckCKWSTests {
    @Test func checkPrintsTheQueryAsAWebClientSendsIt() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let outcome = try cli.json(["check", "--ckws", "nights BETWEEN {3, 9} AND ANY tags IN {'a', 'b'}", "--sort=-nights"])
        #expect(outcome["valid"] as? Bool == true)
        let ckws = try #require(outcome["ckws"] as? [String: Any])
        let filters = try #require(ckws["filterBy"] as? [[String: Any]])
        #expect(filters.compactMap { $0["comparator"] as? String } == ["GREATER_THAN_OR_EQUALS", "LESS_THAN_OR_EQUALS", "LIST_CONTAINS_ANY"])
        #expect((ckws["sortBy"] as? [[String: Any]])?.first?["ascending"] as? Bool == false)
        let text = try cli.run(["check", "--ckws", "FALSEPREDICATE"])
        #expect(text.stdout.contains("has no filterBy for FALSEPREDICATE"))
    }
}

@Suite struct HistoryCommandTests {
    @Test func compactingMakesOldTokensExpire() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: #"{"recordName": "a", "recordType": "Note"}"#).status == 0)
        let old = try #require(try cli.json(["token", "--zone", "Notes"])["syncToken"] as? String)
        #expect(try cli.run(["delete", "--zone", "Notes", "a"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: #"{"recordName": "b", "recordType": "Note"}"#).status == 0)
        let compacted = try cli.json(["history", "compact", "--zone", "Notes", "--keep", "1"])
        #expect(compacted["droppedDeletions"] as? Int == 1)
        let expired = try cli.run(["changes", "--zone", "Notes", "--since", old])
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("changeTokenExpired (21)"))
        let shown = try cli.json(["history", "--zone", "Notes"])
        #expect(shown["oldestValidToken"] as? String == compacted["oldestValidToken"] as? String)
        #expect(try cli.run(["history", "compact", "--zone", "Notes"]).status == 2)
    }
}

@Suite struct ChangesOrderCommandTests {
    @Test func changesComeInTheOrderAsked() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Family"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Family"], stdin: #"{"recordName": "child", "recordType": "Item", "fields": {"up": {"value": {"recordName": "parent"}, "type": "REFERENCE"}}}"#).status == 0)
        #expect(try cli.run(["save", "--zone", "Family"], stdin: #"{"recordName": "parent", "recordType": "Item"}"#).status == 0)
        func order(_ arguments: [String]) throws -> [String] {
            let json = try cli.json(["changes", "--zone", "Family"] + arguments)
            return (json["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } ?? []
        }
        #expect(try order([]) == ["child", "parent"])
        #expect(try order(["--order", "parents-first"]) == ["parent", "child"])
        #expect(try order(["--order", "children-first"]) == ["child", "parent"])
        #expect(try cli.run(["changes", "--zone", "Family", "--order", "sideways"]).status == 2)
    }
}

@Suite struct NotificationPayloadTests {
    @Test func notificationsCarryThePushPayload() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: #"{"recordName": "n0", "recordType": "Note", "fields": {"title": {"value": "a"}}}"#).status == 0)
        #expect(try cli.run(["subscriptions", "create", "--type", "Note", "--id", "notes", "--keys", "title"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes", "--device", "phone"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "東京"}}}"#).status == 0)
        let listed = try cli.json(["notifications"])
        let payload = try #require((listed["notifications"] as? [[String: Any]])?.first?["payload"] as? [String: Any])
        let query = try #require((payload["ck"] as? [String: Any])?["qry"] as? [String: Any])
        #expect(query["rid"] as? String == "n1")
        #expect(query["fo"] as? Int == 1)
        #expect(query["sid"] as? String == "notes")
        #expect(query["dbs"] as? Int == 1)
        #expect(((query["af"] as? [String: Any])?["title"] as? String) == "東京")
    }
}
