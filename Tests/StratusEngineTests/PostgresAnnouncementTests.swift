import Foundation
import Testing
import StratusModel
@testable import StratusEngine
@testable import StratusPostgres
import StratusTestSupport
import StratusCloud

/// Live views on PostgreSQL are woken by other processes' commits (LISTEN/NOTIFY), not by a
/// timer: each test opens the store twice, as two processes would, and watches from one what
/// the other commits. The watches here poll only after minutes, so a wake they report is an
/// announcement.
@Suite struct PostgresAnnouncementTests {
    private static let never = Duration.seconds(300)

    private func item(_ name: String) -> Record {
        var record = Record(recordType: "Item", recordID: RecordID(recordName: name))
        record["name"] = .string(name)
        return record
    }

    private func watch(_ store: Store, _ topics: Set<StoreTopic>, reread: Duration = never) throws -> StoreWatch {
        let announcements = try #require(store.backend.announcements)
        #expect(announcements.isListening)
        return StoreWatch(announcements: announcements, topics: topics, polling: Self.never, reread: reread)
    }

    /// The store at `url` opened twice, as two processes would, with a subscription to new items.
    private func subscribedStores(_ url: String) throws -> (writer: Store, viewer: Store) {
        let writer = try Store.postgres(url, creating: true)
        let viewer = try Store.postgres(url, creating: false)
        _ = try writer.database(.private).modifyRecords(saving: [item("seed")]).savedRecords()
        try writer.database(.private).save(.query("Item", subscriptionID: "all", options: .firesOnRecordCreation))
        return (writer, viewer)
    }

    @Test func aNotificationCommittedElsewhereWakesTheWatchAndNothingElseDoes() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let (writer, viewer) = try subscribedStores(url)
        let notifications = try watch(viewer, [.notifications])
        let logs = try watch(viewer, [.requestLog], reread: .seconds(2))

        _ = try writer.database(.private, device: "laptop").modifyRecords(saving: [item("n1")]).savedRecords()
        #expect(notifications.next() == .announced)
        #expect(try viewer.database(.private).notifications().compactMap { $0.recordID?.recordName } == ["n1"])
        // The request log heard nothing: its watch waits out its own interval.
        #expect(logs.next() == .polled)

        // A save no subscription matches makes no notification, and announces none; nor does a
        // notification in another store (schema) of the same database.
        let quiet = try watch(viewer, [.notifications], reread: .seconds(2))
        try writer.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Other")])
        let otherURL = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(otherURL) }
        let other = try Store.postgres(otherURL, creating: true)
        _ = try other.database(.private).modifyRecords(saving: [item("seed")]).savedRecords()
        try other.database(.private).save(.query("Item", subscriptionID: "all", options: .firesOnRecordCreation))
        _ = try other.database(.private, device: "laptop").modifyRecords(saving: [item("elsewhere")]).savedRecords()
        #expect(try other.database(.private).notifications().count == 1)
        #expect(quiet.next() == .polled)
    }

    @Test func theRequestLogAnnouncesItsAppends() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let server = try Store.postgres(url, creating: true)
        let viewer = try Store.postgres(url, creating: false)
        let logs = try watch(viewer, [.requestLog])
        try server.appendToRequestLog([RequestLogEntry(time: Date(), user: "_u", container: "iCloud.x", database: "private",
                                                       endpoint: "records/query", status: 200, durationMicroseconds: 900, error: nil)])
        #expect(logs.next() == .announced)
        #expect(try viewer.requestLog().map(\.endpoint) == ["records/query"])
    }

    @Test func aLostListenerComesBackAndTheViewReadsAgain() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let (writer, viewer) = try subscribedStores(url)
        let notifications = try watch(viewer, [.notifications])
        let listener = try #require(viewer.backend.announcements as? PostgresListener)
        let process = try #require(listener.listeningProcess)

        // The server ends the listening connection (as a restart or a dropped network would).
        let admin = try PostgresLink.connect(to: PostgresLocation(url: url))
        defer { admin.close() }
        #expect(try admin.rows("SELECT pg_terminate_backend($1::int)", [Int64(process)]).first?.bool(0) == true)

        // The listener connects again; its return wakes the view, which reads what it missed.
        #expect(notifications.next() == .announced)
        let back = try #require(listener.listeningProcess)
        #expect(back != process)
        _ = try writer.database(.private, device: "laptop").modifyRecords(saving: [item("after")]).savedRecords()
        #expect(notifications.next() == .announced)
        #expect(try viewer.database(.private).notifications().compactMap { $0.recordID?.recordName } == ["after"])
    }

    /// The form an async server handler uses (the web courier's long poll): asked often, it says
    /// a read is due only once an announcement came.
    @Test func isDueSaysYesOncePerAnnouncement() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let (writer, viewer) = try subscribedStores(url)
        let notifications = try watch(viewer, [.notifications])
        #expect(!notifications.isDue())
        _ = try writer.database(.private, device: "laptop").modifyRecords(saving: [item("n1")]).savedRecords()
        var asked = 0
        while !notifications.isDue() && asked < 6_000 {   // a hang guard of ten minutes
            asked += 1
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(asked < 6_000)
        #expect(!notifications.isDue())
    }

    @Test func aFileIsPolled() throws {
        let temp = try TemporaryStore()
        #expect(temp.store.backend.announcements == nil)
        let watch = temp.store.watch([.notifications], polling: .milliseconds(50))
        #expect(!watch.isAnnounced)
        #expect(watch.next() == .polled)
        #expect(watch.next(stopped: { true }) == .stopped)
        #expect(!watch.isDue())
        Thread.sleep(forTimeInterval: 0.06)
        #expect(watch.isDue())
    }
}
