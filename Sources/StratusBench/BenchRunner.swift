import Foundation
import StratusCloud
import StratusDashboard
import StratusEngine
import StratusModel
import StratusPredicates
import StratusSQLite
import StratusStores

/// Builds (or reuses) a Stratus store of N venues and the same data in a hand-made baseline in
/// the same database (SQLite beside a file store, PostgreSQL beside a PostgreSQL store), then
/// runs each workload on both and reports medians and ratios.
public final class BenchRunner {
    public let recordCount: Int
    let location: String
    /// Where the stores are (from `location`).
    var place: BenchPlace!
    /// Where workloads write their files (exports): the bench's folder, or a temporary one
    /// beside a PostgreSQL bench.
    var scratch: URL!
    let workloads: [BenchWorkload]
    let runs: Int
    let log: (String) -> Void
    let zoneID = ZoneID(zoneName: "Bench")

    var store: Store!
    var baseline: (any BenchBaseline)!
    /// The baseline's database ("SQLite", "PostgreSQL"), once ``run()`` has opened it.
    public var baselineName: String { baseline?.name ?? "SQLite" }
    private var sidecar = BenchSidecar()

    /// - Parameters:
    ///   - storeDirectory: where the two stores live, reused when they hold `records` venues: a
    ///     folder, or a PostgreSQL URL (see ``BenchPlace``).
    public init(records: Int, storeDirectory: String, workloads: [BenchWorkload], runs: Int = 5, log: @escaping (String) -> Void) {
        recordCount = records
        location = storeDirectory
        self.workloads = workloads
        self.runs = runs
        self.log = log
    }

    public func run() throws -> [BenchResult] {
        place = try BenchPlace(location)
        switch place! {
        case .folder(let folder): scratch = folder
        case .postgres:
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        }
        defer { if case .postgres = place! { try? FileManager.default.removeItem(at: scratch) } }
        var results: [BenchResult] = []
        let built = try prepare()
        if let built, workloads.contains(.save) { results.append(built) }
        for workload in workloads where workload != .save {
            log("running \(workload.rawValue) ...")
            BenchMeasurement.resetPeakMemory()
            var result = try measure(workload)
            if let peak = BenchMeasurement.peakMemoryMiB() { result.extras.append(("peak_mib", peak)) }
            results.append(result)
        }
        return results
    }

    // MARK: - Building the stores

    /// Opens both stores, building them when they do not hold the data yet; returns the save
    /// workload's result when it built them.
    private func prepare() throws -> BenchResult? {
        do {
            let found = try place.openBaseline()
            if let saved = found.savedSidecar(), saved.records == recordCount, try place.storeExists() {
                store = try StoreOpener.open(place.storeLocation, ifMissing: .create)
                baseline = found
                sidecar = saved
                log("reusing the stores in \(StoreOpener.shown(location))")
                return saveResult(saved, extras: [("reused", 1)])
            }
            try place.removeStores(baseline: found)
        }
        baseline = try place.openBaseline()
        // Marks the stores as the bench's before it builds them (a build cut short is its own too).
        try baseline.keep(BenchSidecar())
        store = try StoreOpener.open(place.storeLocation, ifMissing: .create)
        let db = store.database(.private)
        try db.modifyRecordZones(saving: [zoneID])
        BenchMeasurement.resetPeakMemory()
        var random = SeededGenerator(seed: 42)
        let venues = (0..<recordCount).map { BenchVenue.make($0, random: &random) }
        let nearEnd = max(recordCount - 1200, 0)
        var stratusMilliseconds = 0.0, baselineMilliseconds = 0.0
        var stratusBytes: Double? = 0
        var start = 0
        var lastReport = Date()
        while start < venues.count {
            let batch = Array(venues[start..<min(start + CloudDatabase.maximumBatchSize, venues.count)])
            let records = batch.map { Record(recordType: "Venue", recordID: RecordID(recordName: $0.recordName, zoneID: zoneID), fields: $0.fields) }
            let bytesBefore = BenchMeasurement.bytesWritten()
            stratusMilliseconds += try BenchMeasurement.once {
                let result = try db.modifyRecords(saving: records)
                if let failure = result.partialFailure { throw failure }
            }
            if let bytesBefore, let after = BenchMeasurement.bytesWritten() { stratusBytes? += after - bytesBefore } else { stratusBytes = nil }
            baselineMilliseconds += try BenchMeasurement.once { try baseline.insert(batch, modified: Int64(start)) }
            start += batch.count
            if sidecar.tokenAfter10k == nil, start >= min(10_000, recordCount / 2) {
                sidecar.tokenAfter10k = try db.currentToken(for: zoneID)
                sidecar.sequenceAfter10k = start
            }
            if sidecar.tokenNearEnd == nil, start >= nearEnd || start + CloudDatabase.maximumBatchSize > nearEnd {
                sidecar.tokenNearEnd = try db.currentToken(for: zoneID)
                sidecar.sequenceNearEnd = start
            }
            if Date().timeIntervalSince(lastReport) > 2 {
                log("built \(start) of \(recordCount) records")
                lastReport = Date()
            }
        }
        let peak = BenchMeasurement.peakMemoryMiB()
        log("measuring \(baseline.name) alone writing the same rows ...")
        let floor = try measureSaveFloor()
        sidecar.records = recordCount
        sidecar.stratusSaveMilliseconds = stratusMilliseconds
        sidecar.baselineSaveMilliseconds = baselineMilliseconds
        sidecar.floorSaveMilliseconds = floor.milliseconds
        sidecar.floorSaveBytes = floor.bytesWritten
        if case .folder = place! { sidecar.storeBytes = BenchMeasurement.storeBytes(place.storeLocation) } else { stratusBytes = nil }
        sidecar.stratusSaveBytes = stratusBytes
        // The reads are timed as a database that has run a while plans them: with statistics
        // of both sides' tables (PostgreSQL's autovacuum gathers them a minute or more later;
        // before that both sides' plans are blind, ours several times slower).
        try store.gatherPlannerStatistics()
        try baseline.gatherPlannerStatistics()
        try baseline.keep(sidecar)
        return saveResult(sidecar, extras: peak.map { [("peak_mib", $0)] } ?? [])
    }

    /// The save workload: Stratus against SQLite alone writing the same rows in the same
    /// transactions (the floor), the hand-made baseline's figure beside it, and bytes written.
    private func saveResult(_ saved: BenchSidecar, extras more: [(String, Double)]) -> BenchResult {
        let records = Double(saved.records)
        var extras: [(String, Double)] = [("stratus_records_per_s", records / saved.stratusSaveMilliseconds * 1000)]
        if let floor = saved.floorSaveMilliseconds { extras.append(("floor_records_per_s", records / floor * 1000)) }
        extras += [("handmade_baseline_ms", saved.baselineSaveMilliseconds),
                   ("handmade_baseline_ratio", saved.stratusSaveMilliseconds / saved.baselineSaveMilliseconds),
                   ("handmade_baseline_records_per_s", records / saved.baselineSaveMilliseconds * 1000)]
        if let bytes = saved.stratusSaveBytes, let size = saved.storeBytes, size > 0 {
            extras += [("bytes_written", bytes), ("store_bytes", size), ("written_ratio", bytes / size)]
            if let floorBytes = saved.floorSaveBytes { extras.append(("floor_written_ratio", floorBytes / size)) }
        }
        return BenchResult(name: BenchWorkload.save.rawValue, stratusMilliseconds: saved.stratusSaveMilliseconds,
                           baselineMilliseconds: saved.floorSaveMilliseconds ?? saved.baselineSaveMilliseconds, extras: extras + more)
    }

    // MARK: - Workloads

    /// Writes the venues as `stratus export` does; returns how many.
    func exportVenues(to file: URL) throws -> Int {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        return try store.database(.private).exportRecords(zone: zoneID, embedAssets: false, write: { try handle.write(contentsOf: $0) })
    }

    private func measure(_ workload: BenchWorkload) throws -> BenchResult {
        let db = store.database(.private)
        switch workload {
        case .save:
            fatalError("save is measured while building")
        case .queryEquality:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "category == %@", arguments: [.string("museum")]), .category("museum"))
        case .queryRangeSort:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "rating >= 4.5", sortDescriptors: [QuerySort("rating", ascending: false)]),
                                    .ratingAtLeastDescending(4.5))
        case .queryBeginsWith:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "title BEGINSWITH %@", arguments: [.string("Quiet Mill")]),
                                    .titlePrefix("Quiet Mill"))
        case .queryTokens:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "self CONTAINS 'harbour'"), .word("harbour"))
        case .queryLocation:
            let center = (latitude: 40.0, longitude: -100.0), kilometres = 25.0
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "distanceToLocation:fromLocation:(location, %@) < %@",
                                                    arguments: [.location(latitude: center.latitude, longitude: center.longitude), .double(kilometres)]),
                                    .near(latitude: center.latitude, longitude: center.longitude, kilometres: kilometres))
        case .queryList:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "tags CONTAINS 'vegan'"), .tag("vegan"))
        case .queryAllByModified:
            return try compareQuery(workload, Query(recordType: "Venue", sortDescriptors: [QuerySort("modificationDate")]), .byModified)
        case .queryFilterOtherSort:
            return try measureFilterOtherSort(workload)
        case .queryTailTwoSorts:
            let query = Query(recordType: "Venue", sortDescriptors: [QuerySort("rating", ascending: false), QuerySort("title")])
            let db = store.database(.private)
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: runs) {
                stratusRows = try db.lastRecords(matching: query, inZoneWith: zoneID, resultsLimit: 50).count
            }
            let base = try BenchMeasurement.times(runs: runs) {
                baselineRows = try baseline.rows(.tailByRatingThenTitle(limit: 50))
            }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
        case .countType:
            return try compareCount(workload, Query(recordType: "Venue"), .all)
        case .countFiltered:
            return try compareCount(workload, Query(recordType: "Venue", predicateFormat: "rating >= 4.5"), .ratingAtLeast(4.5))
        case .cursor10k:
            let target = min(10_000, recordCount / 4)
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: max(runs / 2, 2)) {
                stratusRows = 0
                var page = try db.records(matching: Query(recordType: "Venue", predicateFormat: "price >= 50", sortDescriptors: [QuerySort("price")]),
                                          inZoneWith: zoneID, resultsLimit: 100)
                stratusRows += page.records.count
                while stratusRows < target, let cursor = page.cursor {
                    page = try db.records(continuingMatchFrom: cursor, resultsLimit: 100)
                    stratusRows += page.records.count
                }
            }
            let base = try BenchMeasurement.times(runs: max(runs / 2, 2)) {
                baselineRows = 0
                var last: [BenchValue]?
                while baselineRows < target {
                    let page = try baseline.page(.priceAtLeast(50), after: last, keys: true)
                    guard let keys = page.last else { break }
                    last = keys
                    baselineRows += page.rows
                }
            }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
        case .fetch100:
            var random = SeededGenerator(seed: 9)
            let names = (0..<100).map { _ in "v\(random.below(recordCount))" }
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: runs) {
                stratusRows = try db.records(for: names.map { RecordID(recordName: $0, zoneID: zoneID) }).filter { (try? $0.result.get()) != nil }.count
            }
            let base = try BenchMeasurement.times(runs: runs) { baselineRows = try baseline.rows(.names(names)) }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
        case .playbackAfter10k, .playbackAfterAll:
            let token = workload == .playbackAfter10k ? sidecar.tokenAfter10k : sidecar.tokenNearEnd
            let sequence = workload == .playbackAfter10k ? sidecar.sequenceAfter10k : sidecar.sequenceNearEnd
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: runs) {
                stratusRows = try db.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: 1000).changes.count
            }
            let base = try BenchMeasurement.times(runs: runs) {
                baselineRows = try baseline.rows(.changes(afterSequence: Int64(sequence ?? 0), limit: 1000))
            }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows)),
                                                    ("earlier_changes", Double(sequence ?? 0))])
        case .playbackFull:
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: 2) {
                stratusRows = 0
                var token: String?
                while true {
                    let page = try db.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: CloudDatabase.maximumChangesLimit)
                    stratusRows += page.changes.count
                    token = page.changeToken
                    if !page.moreComing { break }
                }
            }
            let base = try BenchMeasurement.times(runs: 2) { baselineRows = try baseline.rows(.everything) }
            let stratusMedian = BenchMeasurement.median(stratus), baseMedian = BenchMeasurement.median(base)
            return BenchResult(name: workload.rawValue, stratusMilliseconds: stratusMedian, baselineMilliseconds: baseMedian,
                               extras: [("stratus_records_per_s", Double(stratusRows) / stratusMedian * 1000),
                                        ("baseline_records_per_s", Double(baselineRows) / baseMedian * 1000)])
        case .currentToken:
            let stratus = try BenchMeasurement.times(runs: 200) { _ = try db.currentToken(for: zoneID) }
            let base = try BenchMeasurement.times(runs: 200) { _ = try baseline.rows(.newestSequence) }
            return result(workload, stratus, base, [])
        case .export:
            let file = scratch.appendingPathComponent("export.jsonl")
            let rawFile = scratch.appendingPathComponent("export-raw.jsonl")
            defer { try? FileManager.default.removeItem(at: rawFile) }
            var written = 0
            let stratus = try BenchMeasurement.times(runs: 1) { written = try exportVenues(to: file) }
            let base = try BenchMeasurement.times(runs: 1) { try baseline.exportLines(to: rawFile) }
            return result(workload, stratus, base, [("stratus_records_per_s", Double(written) / BenchMeasurement.median(stratus) * 1000),
                                                    ("baseline_records_per_s", Double(written) / BenchMeasurement.median(base) * 1000)])
        case .import:
            return try measureImport()
        case .dashboardFirstPage:
            // A fresh dashboard each run (no baseline: SQLite has no dashboard).
            var probes: [DashboardProbe.Result] = []
            for _ in 0..<max(3, runs / 2) {
                probes.append(try DashboardProbe.run(store: store, zone: zoneID, recordType: "Venue", keys: 0))
            }
            return BenchResult(name: workload.rawValue, stratusMilliseconds: BenchMeasurement.median(probes.map(\.firstPageMilliseconds)),
                               baselineMilliseconds: nil,
                               extras: [("first_page_max_ms", probes.map(\.firstPageMilliseconds).max() ?? 0),
                                        ("first_frame_ms", BenchMeasurement.median(probes.map(\.firstFrameMilliseconds)))])
        case .serveLookup, .serveQuery, .serveModify, .serveChanges:
            return try ServeBench(store: store, zoneID: zoneID, recordCount: recordCount, requestsPerClient: max(50, min(500, runs * 100)))
                .measure(workload, baseline: baseline)
        case .serveModify200:
            // Each request saves 200 records: a tenth as many requests keeps the run as short.
            return try ServeBench(store: store, zoneID: zoneID, recordCount: recordCount, requestsPerClient: max(10, min(50, runs * 10)))
                .measure(workload, baseline: baseline)
        case .pull:
            return try PullBench(store: store, zoneID: zoneID, directory: scratch).measure(workload)
        case .remoteQueryPage, .remotePlayback:
            return try RemoteBench(store: store, zoneID: zoneID, calls: max(20, runs * 10)).measure(workload)
        case .dashboardLastPage, .dashboardCount:
            var probes: [DashboardProbe.LastPageResult] = []
            for _ in 0..<max(1, min(3, runs / 3)) {
                probes.append(try DashboardProbe.runToLastRecord(store: store, zone: zoneID, recordType: "Venue"))
            }
            let last = workload == .dashboardLastPage
            let stratus = probes.map { last ? $0.lastPageMilliseconds : $0.countMilliseconds }
            let base = try BenchMeasurement.times(runs: max(3, runs / 3)) {
                _ = try last ? baseline.rows(.newestPage(limit: 50)) : baseline.count(.all)
            }
            return result(workload, stratus, base, [("matches", Double(probes.first?.matches ?? 0))])
        case .dashboardKey:
            let probe = try DashboardProbe.run(store: store, zone: zoneID, recordType: "Venue", keys: 200)
            return BenchResult(name: workload.rawValue, stratusMilliseconds: probe.keyMedianMilliseconds, baselineMilliseconds: nil,
                               extras: [("key_p95_ms", probe.keyP95Milliseconds), ("key_max_ms", probe.keyMaxMilliseconds),
                                        ("keys", Double(probe.keys)), ("rows_loaded", Double(probe.rowsLoaded))])
        }
    }

    /// A count from the indexes beside SQLite's `count(*)`; fails when the indexes cannot
    /// count the query (the workload is there to measure that path) or the two disagree.
    private func compareCount(_ workload: BenchWorkload, _ query: Query, _ filter: BaselineCount) throws -> BenchResult {
        let db = store.database(.private)
        var counted: Int?
        let stratus = try BenchMeasurement.times(runs: runs) { counted = try db.indexedCount(matching: query, inZoneWith: zoneID) }
        var expected = 0
        let base = try BenchMeasurement.times(runs: runs) {
            expected = try baseline.count(filter)
        }
        guard let counted, counted == expected else {
            throw DashboardProbe.ProbeError(description: "\(workload.rawValue): the indexes counted \(counted.map(String.init) ?? "nothing"), \(baseline.name) \(expected)")
        }
        return result(workload, stratus, base, [("matches", Double(counted))])
    }

    private func compareQuery(_ workload: BenchWorkload, _ query: Query, _ read: BaselineRead) throws -> BenchResult {
        let db = store.database(.private)
        var stratusRows = 0, baselineRows = 0
        let stratus = try BenchMeasurement.times(runs: runs) {
            stratusRows = try db.records(matching: query, inZoneWith: zoneID, resultsLimit: 100).records.count
        }
        let base = try BenchMeasurement.times(runs: runs) { baselineRows = try baseline.rows(read) }
        return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
    }

    private func result(_ workload: BenchWorkload, _ stratus: [Double], _ baseline: [Double], _ extras: [(String, Double)]) -> BenchResult {
        BenchResult(name: workload.rawValue, stratusMilliseconds: BenchMeasurement.median(stratus),
                    baselineMilliseconds: BenchMeasurement.median(baseline), extras: extras)
    }
}
