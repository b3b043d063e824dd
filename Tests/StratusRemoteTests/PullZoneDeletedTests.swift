import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusTestSupport
import Testing

/// A zone deleted on the server while `stratus pull` reads it (the next page answers
/// `ZONE_NOT_FOUND`): as CloudKit's sync means it, its records are gone, so the pulled copy of
/// the zone is deleted, its token dropped, the pull says so and goes on with the other zones.
@Suite struct PullZoneDeletedTests {
    /// What a pull told its front end.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var said: [String] = []
        var notes: [String] { lock.withLock { said } }
        func note(_ text: String) { lock.withLock { said.append(text) } }
    }

    @Test func aZoneDeletedBetweenPagesIsDeletedHereAndItsTokenDropped() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let server = harness.store.database(.private, caller: .user(harness.store.owner))
        let travel = ZoneID(zoneName: "Travel"), library = ZoneID(zoneName: "Library")
        try server.modifyRecordZones(saving: [travel, library])
        let trips = (0..<450).map { Record(recordType: "Trip", recordID: RecordID(recordName: "trip-\($0)", zoneID: travel), fields: ["n": .int64(Int64($0))]) }
        let books = (0..<5).map { Record(recordType: "Book", recordID: RecordID(recordName: "book-\($0)", zoneID: library)) }
        for batch in [Array(trips[..<300]), Array(trips[300...]) + books] {
            _ = try server.modifyRecords(saving: batch, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
        }

        let path = harness.folder.path("pulled.sqlite")
        let statePath = PullState.path(besides: path)
        let endpoint = harness.endpoint
        let client = harness.client()
        let heard = Heard()
        let pulled = try Store(path: path)
        @Sendable func pull() throws -> PullTally {
            // The hook: once the first page of Travel is in, the zone is deleted on the server.
            let events = PullEvents(waiting: { _ in }, note: heard.note, progress: { _, zone in
                guard zone == "Travel", (try? server.allRecordZones().contains { $0.zoneID == travel }) == true else { return }
                try? server.modifyRecordZones(saving: [], deleting: [travel])
            }, finished: { _, _, _ in })
            let store = pulled
            let state = try PullState.read(statePath)
                ?? PullState(url: endpoint.url, container: endpoint.container, environment: endpoint.environment, storeID: store.storeID.uuidString)
            let remote = try #require(RemoteCloudService(client: client).database(.private) as? RemoteDatabase)
            var containerPull = ContainerPull(remote: remote, store: store, statePath: statePath, state: state, includeAssets: false, onlyZone: nil,
                                              defaultZoneTypes: [], retry: .never, events: events)
            try containerPull.pullChanges()
            return containerPull.tally
        }
        let tally = try await blocking { try pull() }

        #expect(heard.notes.contains("zone Travel was deleted on the server during the pull: deleted here too, with its 200 records, and its token dropped"),
                "\(heard.notes)")
        #expect(tally.zonesDeleted == 1)
        let zones = try pulled.database(.private).allRecordZones()
        #expect(!zones.contains { $0.zoneID == travel }, "the copy of the deleted zone is gone")
        #expect(zones.first { $0.zoneID == library }?.recordCount == 5, "the other zone is pulled whole")
        let saved = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(!saved.contains("\"Travel\"") && saved.contains("\"Library\""), "Travel's token is dropped: \(saved)")

        // The next pull finds nothing to do: the zone stays deleted, as on the server.
        let again = try await blocking { try pull() }
        #expect(again.zonesNew == 0 && again.zonesDeleted == 0 && again.recordsNew == 0)
        #expect(try !pulled.database(.private).allRecordZones().contains { $0.zoneID == travel })
        #expect(heard.notes.filter { $0.contains("Travel") }.count == 1, "\(heard.notes)")
    }
}
