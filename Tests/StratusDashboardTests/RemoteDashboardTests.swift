import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// The dashboard opened on a remote container (`--remote NAME`): the container is a store
/// reached without a local store's features, as a CloudKit Web Services endpoint is.
@Suite struct RemoteDashboardTests {
    static let development = RemoteContainer(name: "served", environment: .development, confirmsWrites: false)
    static let production = RemoteContainer(name: "live", environment: .production, confirmsWrites: true)
    private let travel = ZoneID(zoneName: "Travel")

    func remoteHarness(_ remote: RemoteContainer = development, size: Size = Size(width: 80, height: 24)) throws -> Harness {
        try Harness(records: Fixtures.trips(5), size: size, service: { RemoteLike(base: $0) }, remote: remote)
    }

    @Test func theHeaderNamesTheRemoteAndTheQueryTabLearnsFieldsFromRecords() throws {
        let harness = try remoteHarness()
        let header = try #require(harness.screen().split(separator: "\n").first)
        #expect(header.contains("remote: served (development)"))
        #expect(!header.contains("demo.sqlite"))
        // Nothing but the zones and the query was asked: no users, no schema, no fault plan.
        #expect(harness.state.users.isEmpty)
        #expect(harness.planWatch == nil)
        #expect(harness.state.status?.kind != .error)
        #expect(harness.state.query.records.count == 5)
        // CKWS has no schema endpoint: the columns come from the records read.
        #expect(harness.state.schema(named: "Trip")?.fields["nights"]?.type == .int64)
        #expect(harness.screen().contains("nights"))
    }

    @Test func withoutARecordTypeItAsksForOneByName() throws {
        let harness = try Harness(records: Fixtures.trips(3), recordType: nil, service: { RemoteLike(base: $0) }, remote: Self.development)
        #expect(harness.state.status?.text == "CloudKit Web Services cannot list record types: t names the one to query.")
        harness.press(.char("t"))
        harness.type("Trip")
        harness.press(.enter)
        #expect(harness.state.query.recordType == "Trip")
        #expect(harness.state.query.records.count == 3)
    }

    @Test func localOnlyTabsSayWhyAndTheirKeysDoNothing() throws {
        let harness = try remoteHarness(size: Size(width: 100, height: 30))
        for (key, tab, action) in [("5", "Schema", "v"), ("8", "Logs", "x"), ("9", "Faults", "a")] {
            harness.press(.char(Character(key)))
            let screen = harness.screen()
            #expect(screen.contains("\(tab) is local-only:"), "\(tab)")
            #expect(!screen.contains("Only a local store has this"), "\(tab) tried its calls")
            let jobs = harness.state.jobs.count
            harness.press(.char(Character(action)), .char("j"))
            #expect(harness.state.topModal == nil, "\(tab): \(action) opened nothing")
            #expect(harness.state.jobs.count == jobs, "\(tab): \(action) started nothing")
            #expect(harness.state.status?.text.hasPrefix("\(tab) is local-only:") == true, "\(tab)")
            // The hint bar offers the keys that work everywhere, not the tab's own.
            let hints = harness.screen().split(separator: "\n").dropLast().last ?? ""
            #expect(hints.contains("? help") && !hints.contains("\(action) "), "\(tab): \(hints)")
        }
        // The tabs CKWS serves still work; the zones are read once, not polled.
        harness.press(.char("4"))
        #expect(harness.screen().contains("Travel"))
        #expect(harness.state.localOnlyLine == nil)
        #expect(harness.zoneWatch == nil)
        harness.press(.char("2"), .char("i"))
        harness.type("trip-1 nope")
        harness.press(.enter)
        #expect(harness.state.fetch.rows.map { $0.record != nil } == [true, false])
    }

    @Test func sharingListsTheSignedInUsersSharesAndInvitesByUserRecordName() throws {
        var url = ""
        let harness = try Harness(records: Fixtures.trips(3), prepare: { store in
            let owner = store.database(.private, user: store.owner)
            url = try owner.createShare(rootRecord: "trip-1", inZoneWith: ZoneID(zoneName: "Travel"), publicPermission: .none, title: nil,
                                        recordName: nil, fields: [:]).url
        }, service: { RemoteLike(base: $0) }, remote: Self.development)
        harness.press(.char("7"))
        #expect(harness.state.localOnlyLine == nil)
        #expect(harness.screen().contains("Travel · record trip-1 · public: none · \(url)"))
        // CKWS lists no users: the invitee is typed, then given a permission.
        let bob = try harness.store.createUser(alias: "bob")
        harness.press(.down, .char("a"))
        guard case .textInput(let entry)? = harness.state.topModal else {
            Issue.record("no invitee entry")
            return
        }
        #expect(entry.title == "Invite to the share")
        harness.type(bob.recordName)
        harness.press(.enter, .down, .enter)  // read-write
        #expect(harness.state.status?.kind == .success, "\(String(describing: harness.state.status))")
        let participants = try harness.store.database(.private, user: harness.store.owner).shares().owned.first?.participants ?? []
        #expect(participants.contains { $0.userRecordName == bob.recordName && $0.permission == .readWrite })
        // The signed-in user joins a share by its URL.
        let bobsZone = ZoneID(zoneName: "Music")
        let bobs = harness.store.database(.private, user: bob.recordName)
        try bobs.modifyRecordZones(saving: [bobsZone])
        let bobsURL = try bobs.createShare(rootRecord: nil, inZoneWith: bobsZone, publicPermission: .readOnly, title: nil, recordName: nil, fields: [:]).url
        harness.press(.char("J"))
        harness.type(bobsURL)
        harness.press(.enter)
        #expect(harness.state.status?.kind == .success, "\(String(describing: harness.state.status))")
        #expect(harness.state.sharing.accepted.map(\.url) == [bobsURL])
    }

    /// The filter typed on a remote is checked against the field types its records showed
    /// (there is no schema): a string against an INT64 field is refused as on a local store.
    @Test func theFilterCheckUsesTheTypesLearnedFromRecords() throws {
        func check(_ harness: Harness, _ filter: String) throws -> FilterCheck? {
            harness.press(.char("f"), .tab)
            harness.type(filter)
            guard case .filterEditor(let editor)? = harness.state.topModal else { throw CancellationError() }
            harness.press(.escape)
            return editor.check
        }
        let local = try check(try Harness(records: Fixtures.trips(5)), "nights > 'x'")
        let remote = try remoteHarness()
        #expect(LearnedSchema.types(of: "Trip", in: remote.state)["nights"] == .int64)
        let refused = try check(remote, "nights > 'x'")
        #expect(refused?.isValid == false)
        #expect(refused?.problems.map(\.message) == local?.problems.map(\.message))
        #expect(local?.isValid == false)
        // A field no record showed yet is typed by its value, as the server will judge it.
        #expect(try check(remote, "unseen > 'x'")?.isValid == true)
        #expect(try check(remote, "nights > 3")?.isValid == true)
    }

    @Test func changesPlayBackZoneAndDatabaseAndBookmarkTheToken() throws {
        let harness = try remoteHarness(size: Size(width: 100, height: 30))
        harness.press(.char("3"), .char("r"))
        #expect(harness.state.changes.finished)
        #expect(harness.state.changes.eventCount == 5)
        let token = try #require(harness.state.changes.token)
        harness.press(.char("m"))
        #expect(harness.state.preferences.bookmarks.map(\.token) == [token])
        #expect(harness.state.status?.kind != .error)
        harness.press(.char("v"), .char("r"))
        #expect(harness.state.changes.databaseEvents.contains { $0.zone.zoneName == "Travel" })
    }

    @Test func subscriptionsWorkButNotificationsSayTheyAreLocalOnly() throws {
        let harness = try remoteHarness(size: Size(width: 100, height: 30))
        harness.press(.char("6"))
        #expect(harness.watch == nil, "no notifications poll on a remote")
        #expect(harness.screen().contains("local-only: CloudKit Web Services delivers notifications by push"))
        #expect(harness.state.status?.kind != .error)
    }

    @Test func actAsPicksAmongTheSignedInUsersDatabases() throws {
        let harness = try remoteHarness()
        harness.press(.char("A"))
        guard case .picker(let picker)? = harness.state.topModal else {
            Issue.record("Act As opened no picker")
            return
        }
        #expect(picker.title == "Act as the signed-in user in")
        #expect(picker.items.map(\.label) == ["public", "private", "shared"])
        #expect(picker.items[1].detail.contains("acting"))
        #expect(harness.state.users.isEmpty, "no local users are listed")
        harness.press(.char("k"), .enter)
        #expect(harness.state.scope == .public)
        #expect(harness.screen().split(separator: "\n").first?.contains("remote: served (development) ▸ public") == true)
        harness.send(.key(.char(":")))
        harness.type("user bob")
        harness.press(.enter)
        #expect(harness.state.status?.text == "Remote served acts as its signed-in user only; Act As (:user) picks among their databases.")
        #expect(harness.state.acting == nil)
    }

    @Test func aSaveInProductionAsksFirstAndNoLeavesTheRecord() throws {
        let harness = try remoteHarness(Self.production)
        let name = try #require(harness.state.query.record(at: 0)?.recordName)
        let before = try harness.database.record(for: RecordID(recordName: name, zoneID: travel))
        harness.press(.enter, .char("e"), .ctrl("u"))
        harness.type("77")
        harness.press(.ctrl("s"))
        guard case .confirm(let confirm)? = harness.state.topModal else {
            Issue.record("the save was not held for a confirmation")
            return
        }
        #expect(confirm.title == "Write to production?")
        #expect(confirm.message.contains("save of \(name) goes to remote live, a production container"))
        #expect(try harness.database.record(for: before.recordID).recordChangeTag == before.recordChangeTag, "nothing written yet")
        harness.press(.char("n"))
        #expect(harness.state.status?.text == "Nothing was written to production.")
        #expect(harness.state.jobs.allSatisfy { $0.kind != .save }, "the save's job ended")
        #expect(try harness.database.record(for: before.recordID).recordChangeTag == before.recordChangeTag)
        // Asked again, y writes it.
        while harness.state.topModal != nil { harness.press(.escape) }
        harness.press(.enter, .char("e"), .ctrl("u"))
        harness.type("77")
        harness.press(.ctrl("s"), .char("y"))
        let saved = try harness.database.record(for: before.recordID)
        #expect(saved.recordChangeTag != before.recordChangeTag)
        #expect(saved.fields.values.contains(.double(77)) || saved.fields.values.contains(.int64(77)))
    }

    @Test func aDeleteInProductionIsAskedOnceAndTheDialogSaysProduction() throws {
        let harness = try remoteHarness(Self.production, size: Size(width: 100, height: 30))
        let name = try #require(harness.state.query.record(at: 0)?.recordName)
        harness.press(.char("d"))
        #expect(harness.screen().contains("production"))
        harness.press(.char("y"))
        #expect(harness.state.topModal == nil, "one question, not two")
        #expect(throws: CloudKitError.self) { try harness.database.record(for: RecordID(recordName: name, zoneID: self.travel)) }
    }

    @Test func withYesOrInDevelopmentWritesGoAtOnce() throws {
        let yes = RemoteContainer(name: "live", environment: .production, confirmsWrites: false)
        for remote in [yes, Self.development] {
            let harness = try remoteHarness(remote)
            let name = try #require(harness.state.query.record(at: 0)?.recordName)
            let before = try harness.database.record(for: RecordID(recordName: name, zoneID: travel))
            harness.press(.enter, .char("e"), .ctrl("u"))
            harness.type("78")
            harness.press(.ctrl("s"))
            #expect(harness.state.topModal.map { if case .confirm = $0 { return false } else { return true } } ?? true)
            #expect(try harness.database.record(for: before.recordID).recordChangeTag != before.recordChangeTag)
        }
    }

    @Test func anExportKeepsARemotesAssetsByChecksum() throws {
        let harness = try Harness(size: Size(width: 120, height: 30), service: { RemoteLike(base: $0) }, remote: Self.development)
        let path = harness.directory.appendingPathComponent("remote.jsonl").path
        harness.press(.char("X"), .ctrl("u"))
        harness.type(path)
        harness.press(.enter)
        #expect(harness.state.status?.text.hasPrefix("Exported ") == true, "\(harness.state.status?.text ?? "")")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("fileChecksum"))
        #expect(!text.contains("data:application/octet-stream"))
    }

    @Test func throttlingCountsDownAndEscStopsTheWait() throws {
        let harness = try remoteHarness()
        harness.send(.throttled(secondsLeft: 7))
        let status = try #require(harness.screen().split(separator: "\n").last)
        #expect(status.contains("throttled by the server — retrying in 7 s, Esc cancels"))
        harness.send(.throttled(secondsLeft: 6))
        #expect(harness.screen().contains("retrying in 6 s"))
        harness.press(.escape)
        #expect(harness.state.throttleSecondsLeft == nil)
        #expect(harness.state.status?.text == "Stopped waiting for the server; the throttled call fails.")
        // The wait ending on its own clears the line as well.
        harness.send(.throttled(secondsLeft: 2))
        harness.send(.throttled(secondsLeft: nil))
        #expect(!harness.screen().contains("throttled by the server"))
    }

    @Test func anExpiredSessionSaysHowToSignInAgain() throws {
        let harness = try remoteHarness()
        let expired = CloudKitError(.notAuthenticated, "The request needs a signed-in user", reason: .remoteSignInRequired(remote: "served"))
        harness.press(.char("r"))
        harness.send(.query(.page(job: harness.state.query.loadingJob ?? 0, .failure(expired), page: nil, milliseconds: 1)))
        harness.send(.zones(.loaded(job: 0, scope: .private, .failure(expired))))
        #expect(harness.state.status?.text == "session expired — run: stratus remote login served")
        #expect(try #require(harness.screen().split(separator: "\n").last).contains("session expired — run: stratus remote login served"))
        // Another failure is shown as itself.
        harness.send(.zones(.loaded(job: 0, scope: .private, .failure(CloudKitError(.zoneNotFound, "Zone not found")))))
        #expect(harness.state.status?.text.contains("session expired") == false)
    }
}

/// A remote's throttling waited out with a countdown, on a thread of its own as an effect's.
@Suite struct ThrottleCountdownTests {
    @Test func countsTheSecondsDownThenLetsTheCallGoAgain() {
        let countdown = ThrottleCountdown()
        let posted = LockedValue<[Int?]>([])
        countdown.connect { message in
            if case .throttled(let seconds) = message { posted.withLock { $0.append(seconds) } }
        }
        #expect(countdown.wait(seconds: 1.5))
        #expect(posted.withLock { $0 } == [2, 1, nil])
    }

    @Test func stopEndsTheWaitAndTheCallFails() {
        let countdown = ThrottleCountdown()
        let posted = LockedValue<[Int?]>([])
        let started = DispatchSemaphore(value: 0)
        countdown.connect { message in
            if case .throttled(let seconds) = message {
                posted.withLock { $0.append(seconds) }
                if seconds == 600 { started.signal() }
            }
        }
        let result = LockedValue<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            result.withLock { $0 = countdown.wait(seconds: 600) }
            done.signal()
        }
        started.wait()
        countdown.stop()
        done.wait()
        #expect(result.withLock { $0 } == false)
        #expect(posted.withLock { $0 } == [600, nil])
    }
}

/// What a remote looks like: `Snapshots/remote-*.txt`, drawn as ``SnapshotTests`` draws.
@Suite struct RemoteSnapshotTests {
    func remote(_ state: inout DashboardState, production: Bool = false) {
        state.remote = production ? RemoteDashboardTests.production : RemoteDashboardTests.development
        state.environment = production ? .production : .development
    }

    @Test func headerLocalOnlyTabActAsProductionAndThrottling() {
        let snapshots = SnapshotTests()
        snapshots.assertSnapshot("remote-query") { remote(&$0) }
        snapshots.assertSnapshot("remote-local-only") { state in
            remote(&state)
            state.tab = .logs
        }
        snapshots.assertSnapshot("remote-act-as") { state in
            remote(&state)
            _ = Dashboard.openUserPicker(&state)
        }
        snapshots.assertSnapshot("remote-production-write") { state in
            remote(&state, production: true)
            let save = Effect.record(.save(job: 1, record: Fixtures.trips(1)[0], policy: .ifServerRecordUnchanged, scope: .private, isNew: false))
            _ = ProductionWrites.gate(&state, [save], confirmedAlready: false)
        }
        snapshots.assertSnapshot("remote-throttled") { state in
            remote(&state)
            state.throttleSecondsLeft = 7
        }
    }
}

/// A container as a CloudKit Web Services endpoint is: no local store's features, and what CKWS
/// has no call for (users, the schema, assets by checksum) refused; records through the store.
struct RemoteLike: CloudService {
    let base: LocalCloudService
    var acting: ActingUser { base.acting }
    func database(_ scope: DatabaseScope) -> any CloudDatabaseService { base.database(scope) }
    func users() throws -> [StoreUser] { throw Self.unavailable("listing a container's users") }
    func recordTypes() throws -> [RecordTypeSchema] { throw Self.unavailable("reading the schema") }
    func environment() throws -> StoreEnvironment { try base.environment() }
    func exportSchema() throws -> SchemaDocument { throw Self.unavailable("reading the schema") }
    func assetData(checksum: String) throws -> Data? { throw Self.unavailable("reading an asset by checksum") }
    var localStore: (any LocalStoreFeatures)? { nil }

    static func unavailable(_ feature: String) -> CloudKitError {
        CloudKitError(.serverRejectedRequest, "CloudKit Web Services has no call for \(feature)", reason: .notAvailableRemotely(feature: feature))
    }
}
