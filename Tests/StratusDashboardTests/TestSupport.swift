import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTerminal
import StratusTestSupport
import Testing

/// Runs the dashboard's update against a real store, executing effects synchronously and
/// feeding their results back, as the event loop would but without threads. Queries go to the
/// engine through a ``RecordingQueryRunner``. Given `records`, the store holds just them (no
/// demo), so the Query tab lists exactly them in the order given; `prepare` writes to the
/// store before the dashboard starts.
final class Harness {
    var state: DashboardState
    let runner: EffectRunner
    let store: Store
    /// The harness's temporary folder (its demo store and any file a test writes).
    let folder: TemporaryDirectory
    var directory: URL { folder.url }
    /// When false, effects wait in `pending` until `runPending()` (to test cancellation).
    var autoRun = true
    /// When false, the Query tab's result count waits until `runMapping()`: the walk in
    /// `heldMapping`, the count from the indexes in `heldIndexCounts` (`runIndexCount()` runs it alone).
    var mapsResults = false
    var heldMapping: [Effect] = []
    var heldIndexCounts: [Effect] = []

    /// Runs the held result counts, as the background would finish them.
    func runMapping() {
        runIndexCount()
        let work = heldMapping
        heldMapping = []
        for effect in work { run(effect) }
    }

    /// Runs the held counts from the indexes, leaving the walks held: the number arriving while
    /// the result is still being walked.
    func runIndexCount() {
        let counts = heldIndexCounts
        heldIndexCounts = []
        for effect in counts { run(effect) }
    }
    var pending: [Effect] = []
    let copied = LockedValue<[String]>([])
    /// The engine's query runner as the dashboard sees it, with the calls it was given.
    let queries: RecordingQueryRunner

    /// With `storePath`, opens that existing store (and builds no demo in it); with `records`,
    /// builds no demo either. `service` wraps the store's service (a container without a local
    /// store's features, say); `remote` opens it as the dashboard opens a remote container.
    init(records: [Record] = [], recordCount: Int = 300, size: Size = Size(width: 100, height: 30),
         zone: String = "Travel", recordType: String? = "Trip", demo: Bool = true, storePath: String? = nil,
         prepare: (Store) throws -> Void = { _ in }, service: (LocalCloudService) -> any CloudService = { $0 },
         remote: RemoteContainer? = nil, preferencesPath: String? = nil) throws {
        folder = try TemporaryDirectory("stratus-dash")
        let path = storePath ?? folder.path("demo.sqlite")
        store = try Store(path: path)
        if demo, storePath == nil, records.isEmpty {
            var builder = DemoStoreBuilder(recordCount: recordCount)
            try builder.build(into: store)
        }
        try Harness.save(records, into: store)
        try prepare(store)
        let copiedBox = copied
        let cloud = service(LocalCloudService(store: store, device: DashboardServices.defaultDevice))
        queries = RecordingQueryRunner(engine: CloudQueryRunner(cloud: cloud))
        runner = EffectRunner(services: DashboardServices(
            cloud: cloud, queryRunner: queries, themeLoader: nil,
            clipboard: { text in copiedBox.withLock { $0.append(text) } }, preferencesPath: preferencesPath))
        state = DashboardState(storePath: path, zone: ZoneID(zoneName: zone), recordType: recordType, size: size)
        state.remote = remote
        handle(Dashboard.start(&state))
    }

    /// Saves `records` into `store`, with their zones; their types' fields are inferred as in
    /// development. Change tags are dropped: the engine gives its own.
    static func save(_ records: [Record], into store: Store) throws {
        guard !records.isEmpty else { return }
        let database = store.database(.private)
        let existing = Set(try database.allRecordZones().map(\.zoneID))
        let zones = Set(records.map(\.recordID.zoneID)).subtracting(existing)
        try database.modifyRecordZones(saving: zones.sorted { $0.zoneName < $1.zoneName })
        let saving = records.map { record in
            var record = record
            record.recordChangeTag = nil
            return record
        }
        try database.writeInBulk { writer in
            for start in stride(from: 0, to: saving.count, by: CloudDatabase.maximumBatchSize) {
                _ = try writer.modifyRecords(saving: Array(saving[start..<min(start + CloudDatabase.maximumBatchSize, saving.count)]))
                    .savedRecords()
            }
        }
    }

    var database: CloudDatabase { store.database(.private) }

    func send(_ message: DashboardMessage) {
        handle(Dashboard.update(&state, message))
    }

    func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Opens the Zones tab and moves the selection to the zone named `name`, with keys.
    func selectZone(named name: String) throws {
        press(.char("4"))
        let index = try #require(state.zones.firstIndex { $0.zoneID.zoneName == name }, "no zone \(name)")
        press(.char("g"))
        for _ in 0..<index { press(.char("j")) }
    }

    func type(_ text: String) {
        for character in text { send(.key(.char(character))) }
    }

    func handle(_ effects: [Effect]) {
        for effect in effects {
            // The result count walks the whole result in the background; tests of paging see
            // the pages arrive before it ends, unless they run it (`runMapping`).
            switch effect {
            case .query(.mapResult) where !mapsResults:
                heldMapping.append(effect)
                continue
            case .query(.countFromIndex) where !mapsResults:
                heldIndexCounts.append(effect)
                continue
            default:
                break
            }
            if autoRun || effect.isImmediate {
                run(effect)
            } else {
                pending.append(effect)
            }
        }
    }

    func run(_ effect: Effect) {
        let messages = LockedValue<[DashboardMessage]>([])
        if case .subscriptions(.watchNotifications(let job, let scope, let after)) = effect {
            // The poll loops until cancelled: here it polls once, and `poll()` polls again.
            watch = (job, scope)
            _ = runner.pollNotifications(job: job, scope: scope, afterSequence: after) { message in messages.withLock { $0.append(message) } }
        } else if case .faults(.watch(let job, let after)) = effect {
            faultWatch = job
            _ = runner.pollFaults(job: job, afterEventID: after) { message in messages.withLock { $0.append(message) } }
        } else if case .faults(.watchPlan(let job)) = effect {
            planWatch = job
            _ = runner.pollFaultPlan(job: job, last: nil) { message in messages.withLock { $0.append(message) } }
        } else if case .zones(.watch(let job, let scope)) = effect {
            zoneWatch = (job, scope)
            _ = runner.pollZones(job: job, scope: scope, last: nil) { message in messages.withLock { $0.append(message) } }
        } else if case .logs(.watch(let job, let after)) = effect {
            logWatch = job
            _ = runner.pollRequestLog(job: job, afterID: after) { message in messages.withLock { $0.append(message) } }
        } else {
            runner.execute(effect) { message in messages.withLock { $0.append(message) } }
        }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    /// The notifications poll started by the Subscriptions tab, if any.
    var watch: (job: Int, scope: DatabaseScope)?
    /// The request-log poll started by the Logs tab, if any.
    var logWatch: Int?

    /// The fault-plan poll started by the Faults tab, if any.
    var faultWatch: Int?
    /// The header's read of the fault plan, started with the dashboard.
    var planWatch: Int?

    /// One more read of the fault plan for the header, as its background loop would do.
    func pollFaultPlan() {
        guard let planWatch else { return }
        let messages = LockedValue<[DashboardMessage]>([])
        _ = runner.pollFaultPlan(job: planWatch, last: state.faults.armed) { message in messages.withLock { $0.append(message) } }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    /// The zones watch started by the Zones tab, if any.
    var zoneWatch: (job: Int, scope: DatabaseScope)?

    /// One more read of the zones watch, as its background loop would do.
    func pollZones() {
        guard let zoneWatch else { return }
        let messages = LockedValue<[DashboardMessage]>([])
        _ = runner.pollZones(job: zoneWatch.job, scope: zoneWatch.scope, last: state.zones) { message in messages.withLock { $0.append(message) } }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    /// One more poll of the fault plan, as the Faults tab's background loop would do.
    func pollFaults() {
        guard let faultWatch else { return }
        let messages = LockedValue<[DashboardMessage]>([])
        _ = runner.pollFaults(job: faultWatch, afterEventID: state.faults.events.last?.id ?? 0) { message in messages.withLock { $0.append(message) } }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    /// One more poll of the request log, as the Logs tab's background loop would do.
    func pollLogs() {
        guard let logWatch else { return }
        let messages = LockedValue<[DashboardMessage]>([])
        _ = runner.pollRequestLog(job: logWatch, afterID: state.logs.entries.last?.id ?? 0) { message in messages.withLock { $0.append(message) } }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    /// One more poll of the notifications panel, as its background loop would do.
    func poll() {
        guard let watch else { return }
        let messages = LockedValue<[DashboardMessage]>([])
        _ = runner.pollNotifications(job: watch.job, scope: watch.scope, afterSequence: state.subscriptions.lastSequence) { message in
            messages.withLock { $0.append(message) }
        }
        for message in messages.withLock({ $0 }) { send(message) }
    }

    func runPending() {
        let work = pending
        pending = []
        for effect in work { run(effect) }
    }

    /// How many records of `type` in `zone` match `filter` now, read through the engine.
    func matchingCount(_ filter: String = "TRUEPREDICATE", type: String = "Trip", zone: String = "Travel") throws -> Int {
        var page = try database.records(matching: Query(recordType: type, predicateFormat: filter), inZoneWith: ZoneID(zoneName: zone),
                                        desiredKeys: [], resultsLimit: 1000)
        var count = page.records.count
        while let cursor = page.cursor {
            page = try database.records(continuingMatchFrom: cursor, desiredKeys: [], resultsLimit: 1000)
            count += page.records.count
        }
        return count
    }

    /// The screen as text.
    func screen(width: Int? = nil, height: Int? = nil) -> String {
        var canvas = Canvas(width: width ?? state.size.width, height: height ?? state.size.height)
        DashboardView.render(state, into: &canvas)
        return canvas.text
    }
}

/// Records whose values use CJK, emoji and every field type, with fixed dates and tags.
enum Fixtures {
    static let base = Date(timeIntervalSince1970: 1_767_225_600)

    static func trips(_ count: Int, zone: ZoneID = ZoneID(zoneName: "Travel")) -> [Record] {
        let titles = ["Tokyo weekend ☀️", "京都 旅行 🍵", "Paris food tour 🥐", "서울 hike 🏔️", "Zürich getaway ✨", "👨‍👩‍👧 family visit"]
        return (0..<count).map { index in
            var record = Record(recordType: "Trip", recordID: RecordID(recordName: "trip-\(index)", zoneID: zone))
            record["title"] = .string(titles[index % titles.count])
            record["nights"] = .int64(Int64(index % 9 + 1))
            record["budget"] = .double(Double(index * 125) + 0.5)
            record["startDate"] = .timestamp(base.addingTimeInterval(Double(index) * 86_400))
            record["tags"] = .list(.string, [.string(["work", "雪", "ramen"][index % 3])])
            record["destination"] = .location(Location(latitude: 35.68, longitude: 139.76))
            record.recordChangeTag = "tag\(index)"
            record.creationDate = base
            record.modificationDate = base.addingTimeInterval(3600)
            record.creatorUserRecordName = "_owner"
            record.lastModifiedUserRecordName = "_owner"
            return record
        }
    }

    static let tripSchema = RecordTypeSchema(name: "Trip", fields: [
        "title": SchemaField(name: "title", type: .string, indexes: [.queryable, .sortable, .searchable]),
        "nights": SchemaField(name: "nights", type: .int64, indexes: [.queryable, .sortable]),
        "budget": SchemaField(name: "budget", type: .double, indexes: [.queryable, .sortable]),
        "startDate": SchemaField(name: "startDate", type: .timestamp, indexes: [.queryable, .sortable]),
        "tags": SchemaField(name: "tags", type: .list(.string), indexes: [.queryable]),
        "destination": SchemaField(name: "destination", type: .location, indexes: [.queryable]),
        "cover": SchemaField(name: "cover", type: .asset, indexes: []),
    ], systemIndexes: RecordTypeSchema.developmentSystemIndexes)

    static let placeSchema = RecordTypeSchema(name: "Place", fields: [
        "name": SchemaField(name: "name", type: .string, indexes: [.queryable, .sortable, .searchable]),
        "trip": SchemaField(name: "trip", type: .reference, indexes: [.queryable, .sortable]),
    ], systemIndexes: RecordTypeSchema.developmentSystemIndexes)

    /// A state with data in every tab and no store behind it, for render snapshots.
    static func state(size: Size) -> DashboardState {
        var state = DashboardState(storePath: "/tmp/旅行-demo.sqlite", zone: ZoneID(zoneName: "Travel"), recordType: "Trip", size: size)
        state.recordTypes = [placeSchema, tripSchema]
        state.schemaLoaded = true
        state.zones = [
            RecordZone(zoneID: .default, currentToken: "AAEC-default-token", recordCount: 10),
            RecordZone(zoneID: ZoneID(zoneName: "Travel"), currentToken: "AAEC-travel-token-0123456789", recordCount: 1234),
            RecordZone(zoneID: ZoneID(zoneName: "人々"), currentToken: "AAEC-people-token", recordCount: 56),
        ]
        state.query.receiveFirstPage(trips(40), cursor: "40")
        state.query.hasRun = true
        state.query.lastMilliseconds = 4
        state.fetch.names = ["trip-1", "trip-2", "missing-😀"]
        state.fetch.rows = [
            FetchRow(recordName: "trip-1", record: trips(2)[1]),
            FetchRow(recordName: "missing-😀", error: CloudKitError(.unknownItem, "no")),
        ]
        state.fetch.lastMilliseconds = 2
        state.changes.events = (0..<30).map { index in
            ChangeEvent(kind: index % 7 == 3 ? .deleted : .changed, recordType: index % 2 == 0 ? "Trip" : "Place",
                        recordName: index % 2 == 0 ? "trip-\(index)" : "場所-\(index)",
                        fields: index % 7 == 3 ? [] : ["title", "nights", "タグ"], changeTag: "t\(index)")
        }
        state.changes.eventCount = 30
        state.changes.pages = 2
        state.changes.elapsed = 0.25
        state.changes.finished = true
        state.changes.token = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v"
        state.changes.databaseEvents = [ZoneChangeEvent(kind: "changed", zone: ZoneID(zoneName: "Travel")),
                                        ZoneChangeEvent(kind: "deleted", zone: ZoneID(zoneName: "古い"))]
        state.changes.databaseToken = "DB-TOKEN-42"
        return state
    }
}

