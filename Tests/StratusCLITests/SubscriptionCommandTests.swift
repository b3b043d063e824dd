import Foundation
import Testing

@Suite(.serialized) struct SubscriptionCommandTests {
    private func seed(_ cli: StratusCLI) throws {
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let record = #"{"recordName": "seed", "recordType": "Item", "fields": {"price": {"value": 0}, "name": {"value": "seed"}}}"#
        #expect(try cli.run(["save"], stdin: record).status == 0)
    }

    @Test func createListAndDeleteSubscriptions() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try seed(cli)
        let created = try cli.run(["subscriptions", "create", "--type", "Item", "--filter", "price > %@", "--arg", "int:5",
                                   "--on", "create,update", "--once", "--id", "pricey", "--keys", "name,price"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try cli.run(["subscriptions", "create", "--kind", "zone", "--zone", "Notes", "--id", "notes"]).status == 0)
        #expect(try cli.run(["subscriptions", "create", "--kind", "database", "--type", "Item", "--id", "db"]).status == 0)

        let listed = try cli.json(["subscriptions"])
        let subscriptions = try #require(listed["subscriptions"] as? [[String: Any]])
        #expect(subscriptions.compactMap { $0["subscriptionID"] as? String } == ["db", "notes", "pricey"])
        let pricey = try #require(subscriptions.last)
        #expect(pricey["subscriptionType"] as? String == "query")
        #expect(pricey["recordType"] as? String == "Item")
        #expect(pricey["firesOn"] as? [String] == ["create", "update"])
        #expect(pricey["firesOnce"] as? Bool == true)
        #expect((pricey["query"] as? [String: Any])?["filter"] as? String == "price > %@")
        #expect((pricey["notificationInfo"] as? [String: Any])?["desiredKeys"] as? [String] == ["name", "price"])
        #expect((subscriptions[1]["zoneID"] as? [String: Any])?["zoneName"] as? String == "Notes")
        let text = try cli.run(["subscriptions", "list"])
        #expect(text.stdout.contains("pricey  query  type Item"))
        #expect(text.stdout.contains("3 subscriptions"))

        #expect(try cli.run(["subscriptions", "delete", "pricey", "db"]).status == 0)
        let after = try cli.json(["subscriptions"])
        #expect((after["subscriptions"] as? [[String: Any]])?.compactMap { $0["subscriptionID"] as? String } == ["notes"])
        let missing = try cli.run(["subscriptions", "delete", "pricey"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("unknownItem (11)"))
    }

    @Test func refusalsAreExplained() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try seed(cli)
        let invalid = try cli.run(["subscriptions", "create", "--type", "Item", "--filter", "price > 1 OR price < 0"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("invalidArguments (12)"))
        #expect(invalid.stderr.contains("price > 1 OR price < 0\n          ^~"))
        let shared = try cli.run(["subscriptions", "create", "--db", "shared", "--type", "Item"])
        #expect(shared.status == 1)
        #expect(shared.stderr.contains("not supported in the shared database"))
        let nothing = try cli.run(["subscriptions", "create", "--type", "Item", "--on", ""])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("fires on nothing"))
        let keys = try cli.run(["subscriptions", "create", "--type", "Item", "--keys", "a,b,c,d"])
        #expect(keys.status == 1)
        #expect(keys.stderr.contains("limit is 3"))
        let usage = try cli.run(["subscriptions", "create", "--type", "Item", "--on", "sometimes"])
        #expect(usage.status == 2)
        let defaultZone = try cli.run(["subscriptions", "create", "--kind", "zone"])
        #expect(defaultZone.status == 1)
        #expect(defaultZone.stderr.contains("default zone"))
    }

    @Test func notificationsAreListedFromAnIDAndMarkedRead() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try seed(cli)
        #expect(try cli.run(["subscriptions", "create", "--type", "Item", "--filter", "price > 5", "--id", "q", "--keys", "name"]).status == 0)
        let records = (1...3).map { #"{"recordName": "r\#($0)", "recordType": "Item", "fields": {"price": {"value": \#($0 * 10)}, "name": {"value": "n\#($0)"}}}"# }
        #expect(try cli.run(["save", "--device", "phone"], stdin: records.joined(separator: "\n")).status == 0)
        #expect(try cli.run(["delete", "--device", "phone", "r2"]).status == 0)

        let listed = try cli.json(["notifications"])
        let notes = try #require(listed["notifications"] as? [[String: Any]])
        #expect(notes.compactMap { $0["reason"] as? String } == ["recordCreated", "recordCreated", "recordCreated", "recordDeleted"])
        #expect(notes.compactMap { $0["recordName"] as? String } == ["r1", "r2", "r3", "r2"])
        let first = notes[0]
        #expect(first["recordType"] as? String == "Item")
        #expect(first["subscriptionID"] as? String == "q")
        #expect(first["databaseScope"] as? String == "private")
        #expect(((first["fields"] as? [String: Any])?["name"] as? [String: Any])?["value"] as? String == "n1")

        // The device that made the changes is not notified of them.
        let own = try cli.json(["notifications", "--device", "phone"])
        #expect((own["notifications"] as? [Any])?.isEmpty == true)

        let firstID = try #require(first["id"] as? String)
        let since = try cli.json(["notifications", "--since", firstID])
        #expect((since["notifications"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["r2", "r3", "r2"])
        #expect(try cli.run(["notifications", "--since", firstID, "--mark-read"]).status == 0)
        let unread = try cli.json(["notifications", "--unread"])
        #expect((unread["notifications"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["r1"])
        let unknown = try cli.run(["notifications", "--since", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknownItem (11)"))
    }

    @Test func followShowsAnotherProcessesSaveWithinASecond() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try seed(cli)
        #expect(try cli.run(["subscriptions", "create", "--type", "Item", "--on", "create", "--id", "live", "--keys", "name"]).status == 0)

        let follower = Process()
        follower.executableURL = StratusCLI.binary
        follower.arguments = ["notifications", "--follow", "--json", "--device", "dashboard", "--store", cli.storePath]
        let output = Pipe()
        follower.standardOutput = output
        follower.standardError = FileHandle.nullDevice
        try follower.run()
        defer { if follower.isRunning { follower.terminate() } }
        Thread.sleep(forTimeInterval: 0.5)   // let it start and reach its polling loop

        let lines = LineCollector(output.fileHandleForReading)
        let record = #"{"recordName": "live-1", "recordType": "Item", "fields": {"price": {"value": 1}, "name": {"value": "hello"}}}"#
        #expect(try cli.run(["save"], stdin: record).status == 0)
        // A hang guard, not a speed target: the follower polls often, on a busy machine too.
        let line = try #require(lines.next(timeout: 60), "no notification within a minute: the follower stopped delivering")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["recordName"] as? String == "live-1")
        #expect(object["reason"] as? String == "recordCreated")
        #expect(object["subscriptionID"] as? String == "live")
        #expect(((object["fields"] as? [String: Any])?["name"] as? [String: Any])?["value"] as? String == "hello")

        follower.terminate()
        follower.waitUntilExit()
        #expect(follower.terminationStatus == 0)
        // Stopped by the signal, it returned and closed the store: no write-ahead log is left.
        #expect(!FileManager.default.fileExists(atPath: cli.storePath + "-wal"))
    }
}

/// Reads lines from a pipe on a background thread, so a test can wait for one with a timeout.
final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var lines: [String] = []

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty { condition.broadcast(); condition.unlock(); return }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    func next(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}
