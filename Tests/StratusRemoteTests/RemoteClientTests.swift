import Crypto
import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusServer
import StratusTestSupport
import Testing

/// The CKWS client against a real server on loopback.
@Suite struct RemoteClientTests {
    @Test func eachRotatedTokenIsKeptBeforeTheNextRequestAndOutlivesTheClient() async throws {
        let harness = try await RemoteHarness(sessions: WebSessionPolicy(rotationInterval: 0))
        defer { Task { await harness.stop() } }
        let keeper = RecordingKeeper()
        let client = harness.client(keeper: keeper)
        try await blocking { for _ in 0..<3 { _ = try client.call("private", "zones/list") } }
        #expect(keeper.tokens.count == 3)
        #expect(Set(keeper.tokens + [harness.webAuthToken]).count == 4)
        #expect(client.credentials.webAuthToken == keeper.tokens.last)
        // A later process starts from the kept token, which signs the same user in.
        let later = harness.client(RemoteCredentials(apiToken: harness.apiToken, webAuthToken: keeper.tokens.last))
        #expect(try await blocking { try RemoteCloudService(client: later).currentUser() } == harness.store.owner)
    }

    @Test func batchesAreSplitAndPagedAtTwoHundred() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let database = RemoteCloudService(client: harness.client()).database(.private)
        let zone = ZoneID(zoneName: "Bulk")
        let records = (0..<450).map { Record(recordType: "Item", recordID: RecordID(recordName: "item-\($0)", zoneID: zone), fields: ["n": .int64(Int64($0))]) }
        let (saved, fetched, counts) = try await blocking {
            try database.modifyRecordZones(saving: [zone])
            let saved = try database.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
            let fetched = try database.records(for: records.map(\.recordID), desiredKeys: nil, progress: nil)
            var page = try database.records(matching: Query(recordType: "Item"), inZoneWith: zone, desiredKeys: [], resultsLimit: nil)
            var counts = [page.records.count]
            while let cursor = page.cursor {
                page = try database.records(continuingMatchFrom: cursor, desiredKeys: [], resultsLimit: nil)
                counts.append(page.records.count)
            }
            return (saved, fetched, counts)
        }
        #expect(saved.saveResults.count == 450)
        #expect(saved.partialFailure == nil)
        #expect(fetched.map(\.recordID.recordName) == records.map(\.recordName))
        #expect(try fetched.map { try $0.result.get().fields["n"] } == records.map { $0.fields["n"] })
        #expect(counts == [200, 200, 50])
        #expect(try harness.store.database(.private, caller: .user(harness.store.owner)).allRecordZones().first { $0.zoneID == zone }?.recordCount == 450)
        let atomic = await failure { try database.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true) }
        #expect(atomic?.code == .limitExceeded)
    }

    @Test func aFailedRequestOfASplitBatchSaysWhichRecordsWereDone() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let database = RemoteCloudService(client: harness.client()).database(.private)
        let zone = ZoneID(zoneName: "Bulk")
        try await blocking { try database.modifyRecordZones(saving: [zone]) }
        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, operation: .modify, trigger: .after(1), retryAfter: 60))
        let records = (0..<250).map { Record(recordType: "Item", recordID: RecordID(recordName: "item-\($0)", zoneID: zone)) }
        let error = await failure { try database.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false) }
        #expect(error?.code == .partialFailure)
        #expect(error?.message.hasPrefix("the first 200 of 250 operations were done") == true)
        #expect(error?.partialErrors.count == 50)
        #expect(error?.partialErrors["item-200"]?.code == .requestRateLimited)
        #expect(error?.partialErrors["item-199"] == nil)
        #expect(error?.retryAfter == 60)
    }

    @Test func throttlingIsWaitedOutWithinTheRetryPolicy() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, operation: .fetch, trigger: .once, retryAfter: 0))
        let patient = RemoteCloudService(client: harness.client(retry: RetryPolicy(attempts: 2, longestWait: 5))).database(.private)
        let fetched = try await blocking { try patient.records(for: [RecordID(recordName: "nothing")], desiredKeys: nil, progress: nil) }
        #expect(fetched.count == 1)
        #expect(try harness.store.faults().first?.fired == 1)
        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, operation: .fetch, trigger: .once, retryAfter: 120))
        let error = await failure { try patient.records(for: [RecordID(recordName: "nothing")], desiredKeys: nil, progress: nil) }
        #expect(error?.code == .requestRateLimited)
        #expect(error?.retryAfter == 120)
    }

    /// Throttling waited out by a waiter of the caller's (the dashboard's countdown): it is told
    /// how long, and a wait it stops ends the call with the server's error at once.
    @Test func aWaiterIsAskedToWaitOutThrottlingAndCanStopIt() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let asked = LockedWaits(answer: true)
        let patient = RemoteCloudService(client: harness.client(retry: RetryPolicy(attempts: 2, longestWait: 600), waiter: asked)).database(.private)
        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, operation: .fetch, trigger: .once, retryAfter: 300))
        let fetched = try await blocking { try patient.records(for: [RecordID(recordName: "nothing")], desiredKeys: nil, progress: nil) }
        #expect(fetched.count == 1, "sent again once the waiter said the wait was over")
        #expect(asked.seconds == [300])
        let stopped = LockedWaits(answer: false)
        let impatient = RemoteCloudService(client: harness.client(retry: RetryPolicy(attempts: 2, longestWait: 600), waiter: stopped)).database(.private)
        _ = try harness.store.addFault(Fault(kind: .requestRateLimited, operation: .fetch, trigger: .once, retryAfter: 200))
        let error = await failure { try impatient.records(for: [RecordID(recordName: "nothing")], desiredKeys: nil, progress: nil) }
        #expect(error?.code == .requestRateLimited)
        #expect(error?.retryAfter == 200)
        #expect(stopped.seconds == [200])
    }

    /// A long-running client (the dashboard) signed out by the server takes the token a
    /// `remote login` elsewhere kept, once; with none newer, the sign-in error stands.
    @Test func aSignInKeptElsewhereIsTakenWhenTheServerSaysSignedOut() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let signedOut = RemoteCredentials(apiToken: harness.apiToken, webAuthToken: "158__54__0000")
        let renewed = harness.client(signedOut, keeper: SignedInElsewhere(token: harness.webAuthToken))
        let zones = try await blocking { try renewed.call("private", "zones/list") }
        #expect(zones["zones"] != nil)
        #expect(renewed.credentials.webAuthToken != "158__54__0000")
        let stale = harness.client(signedOut, keeper: SignedInElsewhere(token: "158__54__0000"))
        #expect(await failure { try stale.call("private", "zones/list") }?.reason == .remoteSignInRequired(remote: "test"))
    }

    @Test func failuresCarryTypedReasons() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let database = RemoteCloudService(client: harness.client()).database(.private)
        let zone = await failure { try database.currentToken(for: ZoneID(zoneName: "Nowhere")) }
        #expect(zone?.reason == .zoneNotFound(zoneName: "Nowhere", database: .private))
        let signedOut = harness.client(RemoteCredentials(apiToken: harness.apiToken, webAuthToken: "158__54__0000"))
        #expect(await failure { try signedOut.call("private", "zones/list") }?.reason == .remoteSignInRequired(remote: "test"))
        let badToken = harness.client(RemoteCredentials(apiToken: String(repeating: "0", count: 64)))
        #expect(await failure { try badToken.call("public", "zones/list") }?.reason == .remoteCredentialRejected(remote: "test"))
        let nothing = harness.client(RemoteCredentials())
        #expect(await failure { try nothing.call("public", "zones/list") }?.reason == .remoteCredentialMissing(remote: "test"))
        let unavailable = await failure { try database.recordCountsByType(inZoneWith: .default) }
        #expect(unavailable?.reason == .notAvailableRemotely(feature: "counting a zone's records by type"))
        // Nothing listens on port 1 of loopback.
        let closed = CKWSClient(name: "test", endpoint: RemoteEndpoint(url: "http://127.0.0.1:1", container: RemoteHarness.container, environment: "development"),
                                credentials: RemoteCredentials(apiToken: harness.apiToken), retry: .never)
        let unreachable = await failure { try closed.call("public", "zones/list") }
        #expect(unreachable?.reason == .remoteUnreachable(url: "http://127.0.0.1:1"))
        #expect(unreachable?.message.contains(harness.apiToken) == false)
    }

    @Test func aServerToServerKeyReachesThePublicDatabaseOnly() async throws {
        let harness = try await RemoteHarness()
        defer { Task { await harness.stop() } }
        let key = P256.Signing.PrivateKey()
        let keyID = try harness.store.addServerKey(publicKeyPEM: key.publicKey.pemRepresentation, container: RemoteHarness.container, user: harness.store.owner)
        #expect(RemoteCredentials.isP256PrivateKey(key.pemRepresentation))
        let signed = RemoteCloudService(client: harness.client(RemoteCredentials(keyID: keyID, privateKeyPEM: key.pemRepresentation)))
        #expect(try await blocking { try signed.currentUser() } == harness.store.owner)
        #expect(try await blocking { try signed.database(.public).allRecordZones().map(\.zoneID) } == [.default])
        #expect(await failure { try signed.database(.private).allRecordZones() }?.reason == .remoteCredentialMissing(remote: "test"))
        let forged = RemoteCloudService(client: harness.client(RemoteCredentials(keyID: keyID, privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)))
        #expect(await failure { try forged.database(.public).allRecordZones() }?.reason == .remoteCredentialRejected(remote: "test"))
    }
}

/// A waiter that returns at once with `answer`, noting each wait it was asked for.
final class LockedWaits: ThrottleWaiter, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [Double] = []
    let answer: Bool

    init(answer: Bool) { self.answer = answer }

    var seconds: [Double] { lock.withLock { asked } }

    func wait(seconds: Double) -> Bool {
        lock.withLock { asked.append(seconds) }
        return answer
    }
}

/// A credentials file another process signed in through: it holds `token`.
struct SignedInElsewhere: SessionTokenKeeper {
    let token: String

    func keep(webAuthToken: String) throws {}
    func keptWebAuthToken() -> String? { token }
}
