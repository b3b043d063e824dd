import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct SubscriptionTests {
    /// The writer acts from another device than the reader, so every notification is delivered.
    private func writer(_ temp: TemporaryStore, _ scope: DatabaseScope = .private) -> CloudDatabase {
        temp.store.database(scope, device: "phone")
    }

    private func item(_ name: String, price: Int64, zone: ZoneID = .default, extra: [String: FieldValue] = [:]) -> Record {
        var fields = extra
        fields["price"] = .int64(price)
        fields["name"] = .string(name.uppercased())
        return Record(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
    }

    /// Saves (with the all-keys policy, so records can be rewritten without change tags).
    private func put(_ db: CloudDatabase, _ records: Record...) throws {
        let result = try db.modifyRecords(saving: records, savePolicy: .allKeys)
        for saved in result.saveResults { _ = try saved.result.get() }
    }

    private func events(_ db: CloudDatabase, subscription: String? = nil) throws -> [String] {
        try db.notifications().filter { subscription == nil || $0.subscriptionID == subscription }.map { note in
            "\(note.queryNotificationReason?.name ?? note.notificationType.name) \(note.recordID?.recordName ?? "-")"
        }
    }

    @Test func reasonsFollowTheRecordEnteringStayingAndLeavingTheQuery() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        try put(db, item("seed", price: 0))
        try temp.privateDB.save(.query("Item", predicateFormat: "price > %@", arguments: [.int(5)], subscriptionID: "expensive",
                                       options: .firesOnAnyChange, notificationInfo: NotificationInfo(desiredKeys: ["name", "price"])))
        try put(db, item("a", price: 10))                  // created matching
        try put(db, item("b", price: 1))                   // created, not matching: nothing
        try put(db, item("b", price: 7))                   // starts matching: recordCreated
        try put(db, item("a", price: 12))                  // changes while matching: recordUpdated
        try put(db, item("a", price: 2))                   // stops matching: recordDeleted
        try db.deleteRecord(withID: RecordID(recordName: "b"))  // deleted while matching
        try db.deleteRecord(withID: RecordID(recordName: "a"))  // deleted, not matching: nothing
        #expect(try events(temp.privateDB) == ["recordCreated a", "recordCreated b", "recordUpdated a", "recordDeleted a", "recordDeleted b"])

        let notes = try temp.privateDB.notifications()
        let first = notes[0]
        #expect(first.notificationType == .query)
        #expect(first.subscriptionID == "expensive")
        #expect(first.databaseScope == .private)
        #expect(first.recordType == "Item")
        #expect(first.recordID == RecordID(recordName: "a"))
        #expect(first.recordFields == ["name": .string("A"), "price": .int64(10)])
        #expect(first.originatingDevice == "phone")
        #expect(abs(first.date.timeIntervalSinceNow) < 60)
        #expect(notes[3].recordFields["price"] == .int64(2))     // stops matching: the new values
        #expect(notes[4].recordFields["price"] == .int64(7))     // deleted: the last values
        #expect(Set(notes.map(\.notificationID)).count == notes.count)
    }

    @Test func eachOptionFiresOnlyForItsReason() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        try put(db, item("seed", price: 0))
        for (id, option) in [("c", QuerySubscriptionOptions.firesOnRecordCreation), ("u", .firesOnRecordUpdate), ("d", .firesOnRecordDeletion)] {
            try temp.privateDB.save(.query("Item", predicateFormat: "price >= 5", subscriptionID: id, options: option))
        }
        try put(db, item("x", price: 5))
        try put(db, item("x", price: 6))
        try put(db, item("x", price: 4))
        try put(db, item("y", price: 9))
        try db.deleteRecord(withID: RecordID(recordName: "y"))
        #expect(try events(temp.privateDB, subscription: "c") == ["recordCreated x", "recordCreated y"])
        #expect(try events(temp.privateDB, subscription: "u") == ["recordUpdated x"])
        #expect(try events(temp.privateDB, subscription: "d") == ["recordDeleted x", "recordDeleted y"])
    }

    @Test func firesOnceRemovesTheSubscriptionAfterOneNotification() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        try put(db, item("seed", price: 0))
        try temp.privateDB.save(.query("Item", subscriptionID: "once", options: [.firesOnRecordCreation, .firesOnce]))
        try temp.privateDB.save(.query("Item", subscriptionID: "always", options: [.firesOnRecordCreation]))
        try put(db, item("a", price: 1), item("b", price: 2))   // one batch: "once" fires for a only
        try put(db, item("c", price: 3))
        #expect(try events(temp.privateDB, subscription: "once") == ["recordCreated a"])
        #expect(try events(temp.privateDB, subscription: "always") == ["recordCreated a", "recordCreated b", "recordCreated c"])
        #expect(try temp.privateDB.allSubscriptions().map(\.subscriptionID) == ["always"])
        let gone = #expect(throws: CloudKitError.self) { try temp.privateDB.subscription(for: "once") }
        #expect(gone?.code == .unknownItem)
    }

    @Test func eachDatabaseAllowsOnlyWhatCloudKitAllows() throws {
        let temp = try TemporaryStore()
        let notes = try temp.zone("Notes")
        for scope in [DatabaseScope.public, .private] { try put(temp.store.database(scope), item("seed", price: 0)) }
        let shared = temp.store.database(.shared), publicDB = temp.store.database(.public), privateDB = temp.privateDB

        let sharedQuery = #expect(throws: CloudKitError.self) { try shared.save(.query("Item", options: .firesOnAnyChange)) }
        #expect(sharedQuery?.code == .invalidArguments)
        #expect(sharedQuery?.message.contains("shared database") == true)
        try publicDB.save(.query("Item", subscriptionID: "p", options: .firesOnAnyChange))
        try privateDB.save(.query("Item", subscriptionID: "q", options: .firesOnAnyChange, zoneID: notes))

        #expect(throws: CloudKitError.self) { try publicDB.save(.recordZone(.default)) }
        let defaultZone = #expect(throws: CloudKitError.self) { try privateDB.save(.recordZone(.default)) }
        #expect(defaultZone?.message.contains("default zone") == true)
        let missing = #expect(throws: CloudKitError.self) { try privateDB.save(.recordZone(ZoneID(zoneName: "Nope"))) }
        #expect(missing?.code == .zoneNotFound)
        try privateDB.save(.recordZone(notes, subscriptionID: "z"))

        let publicDatabase = #expect(throws: CloudKitError.self) { try publicDB.save(.database()) }
        #expect(publicDatabase?.code == .invalidArguments)
        try privateDB.save(.database(subscriptionID: "d"))
        try shared.save(.database(subscriptionID: "s"))
        #expect(try publicDB.allSubscriptions().map(\.subscriptionID) == ["p"])
        #expect(try privateDB.allSubscriptions().map(\.subscriptionID) == ["d", "q", "z"])
        #expect(try shared.allSubscriptions().map(\.subscriptionID) == ["s"])
    }

    @Test func refusesSubscriptionsCloudKitWouldRefuse() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try put(db, item("seed", price: 0))
        let noFires = #expect(throws: CloudKitError.self) { try db.save(.query("Item", options: [.firesOnce])) }
        #expect(noFires?.code == .invalidArguments)
        #expect(noFires?.message.contains("fires on nothing") == true)
        let tooManyKeys = #expect(throws: CloudKitError.self) {
            try db.save(.query("Item", options: .firesOnAnyChange, notificationInfo: NotificationInfo(desiredKeys: ["a", "b", "c", "d"])))
        }
        #expect(tooManyKeys?.code == .invalidArguments)
        #expect(tooManyKeys?.message.contains("limit is 3") == true)
        try db.save(.query("Item", subscriptionID: "three", options: .firesOnAnyChange, notificationInfo: NotificationInfo(desiredKeys: ["a", "b", "c"])))
        let unknownType = #expect(throws: CloudKitError.self) { try db.save(.query("Nothing", options: .firesOnAnyChange)) }
        #expect(unknownType?.code == .unknownItem)
        let badPredicate = #expect(throws: CloudKitError.self) {
            try db.save(.query("Item", predicateFormat: "name MATCHES 'x.*'", options: .firesOnAnyChange))
        }
        #expect(badPredicate?.code == .invalidArguments)
        #expect(badPredicate?.predicateDiagnostics?.diagnostics.first?.range != nil)
        let unknownField = #expect(throws: CloudKitError.self) {
            try db.save(.query("Item", predicateFormat: "colour == 'red'", options: .firesOnAnyChange))
        }
        #expect(unknownField?.predicateDiagnostics != nil)
        let both = #expect(throws: CloudKitError.self) {
            try db.modifySubscriptions(saving: [.query("Item", subscriptionID: "ok", options: .firesOnAnyChange)], deleting: ["missing"])
        }
        #expect(both?.code == .unknownItem)
        #expect(try db.allSubscriptions().map(\.subscriptionID) == ["three"])   // nothing of a failed request is saved
    }

    @Test func subscriptionsRoundTripReplaceAndDelete() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try put(db, item("seed", price: 0, zone: zone, extra: ["when": .timestamp(Date(timeIntervalSince1970: 1_700_000_000.5))]))
        let info = NotificationInfo(desiredKeys: ["name"], alertBody: "Changed", title: "Items", category: "ITEM", shouldSendContentAvailable: true)
        let original = Subscription.query("Item", predicateFormat: "%K > %@ AND when < %@",
                                          arguments: [.key("price"), .int(Int64.max - 1), .date(Date(timeIntervalSince1970: 1_800_000_000.25))],
                                          subscriptionID: "s1", options: [.firesOnRecordUpdate, .firesOnce], zoneID: zone, notificationInfo: info)
        try db.save(original)
        let reopened = try temp.reopened().database(.private)
        #expect(try reopened.subscription(for: "s1") == original)
        #expect(try reopened.allSubscriptions() == [original])

        let replaced = Subscription.recordZone(zone, recordType: "Item", subscriptionID: "s1")
        try db.save(replaced)
        #expect(try db.allSubscriptions() == [replaced])
        #expect(try temp.store.database(.private, user: "someone-else").allSubscriptions().isEmpty)
        try db.deleteSubscription(withID: "s1")
        #expect(try db.allSubscriptions().isEmpty)
        let again = #expect(throws: CloudKitError.self) { try db.deleteSubscription(withID: "s1") }
        #expect(again?.code == .unknownItem)
    }

    @Test func zoneAndDatabaseSubscriptionsFireOncePerTransaction() throws {
        let temp = try TemporaryStore()
        let notes = try temp.zone("Notes")
        let other = try temp.zone("Other")
        let db = writer(temp)
        try temp.privateDB.save(.recordZone(notes, subscriptionID: "notes"))
        try temp.privateDB.save(.recordZone(notes, recordType: "Memo", subscriptionID: "memos"))
        try temp.privateDB.save(.database(subscriptionID: "all"))
        try temp.privateDB.save(.database(recordType: "Memo", subscriptionID: "all-memos"))

        try put(db, item("a", price: 1, zone: notes), item("b", price: 2, zone: notes), item("c", price: 3, zone: other))
        try put(db, item("d", price: 4))                                  // default zone: no database notification
        try put(db, item("e", price: 5, zone: other))
        try db.deleteRecord(withID: RecordID(recordName: "a", zoneID: notes))
        try put(db, Record(recordType: "Memo", recordID: RecordID(recordName: "m", zoneID: notes)))

        #expect(try events(temp.privateDB, subscription: "notes") == ["zone -", "zone -", "zone -"])
        #expect(try events(temp.privateDB, subscription: "memos") == ["zone -"])
        #expect(try events(temp.privateDB, subscription: "all") == ["database -", "database -", "database -", "database -"])
        #expect(try events(temp.privateDB, subscription: "all-memos") == ["database -"])
        let zoneNote = try #require(try temp.privateDB.notifications().first { $0.subscriptionID == "notes" })
        #expect(zoneNote.recordZoneID == notes)
        #expect(zoneNote.queryNotificationReason == nil)
    }

    @Test func notificationsAreWrittenInTheChangesTransaction() throws {
        let temp = try TemporaryStore()
        let notes = try temp.zone("Notes")
        let db = writer(temp)
        try put(db, item("seed", price: 0, zone: notes))
        try temp.privateDB.save(.query("Item", subscriptionID: "q", options: .firesOnAnyChange))
        try temp.privateDB.save(.recordZone(notes, subscriptionID: "z"))
        // An atomic batch in a custom zone with one bad record writes nothing, and notifies nothing.
        var bad = item("bad", price: 0, zone: notes)
        bad["price"] = .string("not a number")
        let result = try db.modifyRecords(saving: [item("good", price: 1, zone: notes), bad], atomically: true)
        #expect(throws: CloudKitError.self) { try result.saveResults[0].result.get() }
        #expect(try temp.privateDB.notifications().isEmpty)
        // A non-atomic batch notifies for what it wrote.
        _ = try db.modifyRecords(saving: [item("good", price: 1, zone: notes), bad], atomically: false)
        #expect(try events(temp.privateDB) == ["recordCreated good", "zone -"])
    }

    @Test func cascadedDeletionsFire() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Tree")
        let db = writer(temp)
        let parent = Record(recordType: "Folder", recordID: RecordID(recordName: "root", zoneID: zone))
        var child = Record(recordType: "File", recordID: RecordID(recordName: "leaf", zoneID: zone))
        child["folder"] = .reference(Reference(recordName: "root", action: .deleteSelf))
        try put(db, parent, child)
        try temp.privateDB.save(.query("File", subscriptionID: "files", options: [.firesOnRecordDeletion]))
        try db.deleteRecord(withID: parent.recordID)
        #expect(try events(temp.privateDB) == ["recordDeleted leaf"])
    }

    @Test func theOriginatingDeviceDoesNotReceiveItsOwnNotifications() throws {
        let temp = try TemporaryStore()
        try put(temp.privateDB, item("seed", price: 0))
        try temp.privateDB.save(.query("Item", subscriptionID: "q", options: .firesOnAnyChange))
        let phone = temp.store.database(.private, device: "phone")
        let laptop = temp.store.database(.private, device: "laptop")
        try put(phone, item("from-phone", price: 1))
        try put(laptop, item("from-laptop", price: 1))
        try put(temp.privateDB, item("from-store", price: 1))           // the default device
        #expect(try events(phone) == ["recordCreated from-laptop", "recordCreated from-store"])
        #expect(try events(laptop) == ["recordCreated from-phone", "recordCreated from-store"])
        #expect(try events(temp.privateDB) == ["recordCreated from-phone", "recordCreated from-laptop"])
        #expect(try phone.notifications(includingOwnDevice: true).count == 3)
        #expect(temp.privateDB.device == CloudDatabase.defaultDevice)
    }

    @Test func notificationsAreOrderedReadableFromAnIDAndMarkable() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        try put(db, item("seed", price: 0))
        try temp.privateDB.save(.query("Item", subscriptionID: "q", options: .firesOnAnyChange))
        for index in 0..<5 { try put(db, item("r\(index)", price: Int64(index))) }
        let all = try temp.privateDB.notifications()
        #expect(all.map { $0.recordID?.recordName } == ["r0", "r1", "r2", "r3", "r4"])
        #expect(all.map(\.sequence) == all.map(\.sequence).sorted())
        let rest = try temp.privateDB.notifications(after: all[1].notificationID)
        #expect(rest.map(\.notificationID) == Array(all[2...].map(\.notificationID)))
        #expect(try temp.privateDB.notifications(after: all[1].notificationID, limit: 2).count == 2)
        #expect(try temp.privateDB.notifications(afterSequence: all[3].sequence).map(\.notificationID) == [all[4].notificationID])
        #expect(try temp.privateDB.sequence(ofNotification: all[2].notificationID) == all[2].sequence)

        try temp.privateDB.markNotificationsRead([all[0].notificationID, all[2].notificationID])
        let unread = try temp.privateDB.notifications(unreadOnly: true)
        #expect(unread.map(\.notificationID) == [all[1], all[3], all[4]].map(\.notificationID))
        #expect(try temp.privateDB.notifications().filter(\.isRead).count == 2)
        let unknown = #expect(throws: CloudKitError.self) { try temp.privateDB.notifications(after: "no-such-id") }
        #expect(unknown?.code == .unknownItem)
        // Another database of the store has its own notifications.
        #expect(try temp.store.database(.public).notifications().isEmpty)
    }

    /// Replaying a subscription's notifications (created adds, deleted removes) gives exactly
    /// the records its query returns.
    @Test func subscriptionMatchingAgreesWithRunningItsQuery() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        try put(db, Record(recordType: "Item", recordID: RecordID(recordName: "seed"),
                           fields: ["price": .int64(0), "name": .string("x"), "tags": .list(.string, [.string("a")]), "ratio": .double(0)]))
        let predicates: [(String, [PredicateArgument])] = [
            ("price > 50", []), ("name BEGINSWITH 'b'", []), ("ANY tags == 'red'", []),
            ("price BETWEEN {20, 60} AND ratio < 0.5", []), ("name IN %@", [.value(.list(.string, [.string("apple"), .string("cherry")]))]),
            ("TRUEPREDICATE", []), ("self CONTAINS 'green'", []), ("price != 10", []),
            // Each kind of guard the write path files subscriptions under, and its edges.
            ("price == 42", []), ("name == 'APPLE'", []), ("price < 30", []), ("price <= 30", []), ("price >= 70.0", []),
            ("ratio > 0.5", []), ("ANY tags IN {'red', 'blue'}", []), ("price > 20 AND name BEGINSWITH 'bl'", []),
            ("price BETWEEN {30, 31}", []), ("price > %@", [.int(-1)]), ("name BEGINSWITH 'date'", []),
        ]
        var initial: [Set<String>] = []
        for (index, (format, arguments)) in predicates.enumerated() {
            let query = Query(recordType: "Item", predicateFormat: format, arguments: arguments)
            initial.append(Set(try temp.privateDB.records(matching: query).records.map(\.recordName)))
            try temp.privateDB.save(.query("Item", predicateFormat: format, arguments: arguments, subscriptionID: "p\(index)", options: .firesOnAnyChange))
        }
        var generator = SeededGenerator(seed: 42)
        let names = ["apple", "banana", "blueberry", "cherry", "date", "green fig"]
        let tags = ["red", "green", "blue"]
        for step in 0..<300 {
            let name = "r\(Int(generator.next() % 40))"
            if step % 7 == 6 {
                _ = try? db.deleteRecord(withID: RecordID(recordName: name))
                continue
            }
            var record = Record(recordType: "Item", recordID: RecordID(recordName: name))
            record["price"] = .int64(Int64(generator.next() % 100))
            record["name"] = .string(names[Int(generator.next() % UInt64(names.count))])
            record["ratio"] = .double(Double(generator.next() % 100) / 100)
            record["tags"] = .list(.string, (0..<Int(generator.next() % 3)).map { _ in .string(tags[Int(generator.next() % 3)]) })
            try put(db, record)
        }
        let notes = try temp.privateDB.notifications(limit: 100_000)
        for (index, (format, arguments)) in predicates.enumerated() {
            var replayed = initial[index]
            for note in notes where note.subscriptionID == "p\(index)" {
                let name = try #require(note.recordID?.recordName)
                switch note.queryNotificationReason {
                case .recordCreated?: #expect(replayed.insert(name).inserted, "\(format): \(name) created twice")
                case .recordDeleted?: #expect(replayed.remove(name) != nil, "\(format): \(name) deleted while absent")
                default: #expect(replayed.contains(name))
                }
            }
            let page = try temp.privateDB.records(matching: Query(recordType: "Item", predicateFormat: format, arguments: arguments), resultsLimit: 1000)
            #expect(Set(page.records.map(\.recordName)) == replayed, "\(format)")
            #expect(notes.contains { $0.subscriptionID == "p\(index)" }, "\(format): no change reached this subscription")
        }
    }

    @Test func predicatesUsingNowUseTheTransactionsTime() throws {
        let temp = try TemporaryStore()
        let db = writer(temp)
        let task = { (name: String, due: Date) in
            Record(recordType: "Task", recordID: RecordID(recordName: name), fields: ["due": .timestamp(due)])
        }
        try put(db, task("seed", Date()))
        try temp.privateDB.save(.query("Task", predicateFormat: "due < now()", subscriptionID: "overdue", options: .firesOnAnyChange))
        let start = Date()
        try put(db, task("late", start.addingTimeInterval(-3600)), task("future", start.addingTimeInterval(3600)))  // compiles and caches
        Thread.sleep(forTimeInterval: 0.5)
        try put(db, task("passed", start.addingTimeInterval(0.2)))   // past by now, though not when the cache was built
        #expect(try events(temp.privateDB) == ["recordCreated late", "recordCreated passed"])
    }

    @Test func aStoreWithoutSubscriptionsWritesNoNotifications() throws {
        let temp = try TemporaryStore()
        try put(temp.privateDB, item("a", price: 1))
        try temp.privateDB.save(.query("Item", subscriptionID: "q", options: .firesOnAnyChange))
        try temp.privateDB.deleteSubscription(withID: "q")
        try put(temp.privateDB, item("b", price: 1))
        #expect(try temp.privateDB.notifications(includingOwnDevice: true).isEmpty)
    }
}
