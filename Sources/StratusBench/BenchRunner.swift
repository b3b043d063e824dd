import Foundation
import StratusCloud
import StratusDashboard
import StratusEngine
import StratusModel
import StratusPredicates
import StratusSQLite
import StratusStores

/// Builds (or reuses) a Stratus store of N venues and the same data in a hand-made SQLite
/// baseline, then runs each workload on both and reports medians and ratios.
public final class BenchRunner {
    public let recordCount: Int
    let directory: URL
    let workloads: [BenchWorkload]
    let runs: Int
    let log: (String) -> Void
    let zoneID = ZoneID(zoneName: "Bench")

    var store: Store!
    var baseline: BaselineStore!
    private var sidecar = BenchSidecar()

    /// - Parameters:
    ///   - storeDirectory: where the two stores live; reused when they hold `records` venues.
    public init(records: Int, storeDirectory: String, workloads: [BenchWorkload], runs: Int = 5, log: @escaping (String) -> Void) {
        recordCount = records
        directory = URL(fileURLWithPath: storeDirectory)
        self.workloads = workloads
        self.runs = runs
        self.log = log
    }

    public func run() throws -> [BenchResult] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
        let storePath = directory.appendingPathComponent("stratus.sqlite").path
        let baselinePath = directory.appendingPathComponent("baseline.sqlite").path
        let sidecarPath = directory.appendingPathComponent("bench.json").path
        if let saved = BenchSidecar.load(sidecarPath), saved.records == recordCount,
           FileManager.default.fileExists(atPath: storePath), FileManager.default.fileExists(atPath: baselinePath) {
            store = try StoreOpener.open(storePath, ifMissing: .create)
            baseline = try BaselineStore(path: baselinePath)
            sidecar = saved
            log("reusing the stores in \(directory.path)")
            return saveResult(saved, extras: [("reused", 1)])
        }
        for path in [storePath, baselinePath, sidecarPath] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        store = try StoreOpener.open(storePath, ifMissing: .create)
        baseline = try BaselineStore(path: baselinePath)
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
        log("measuring SQLite alone writing the same rows ...")
        let floor = try measureSaveFloor(copying: storePath, into: directory.appendingPathComponent("floor.sqlite").path)
        sidecar.records = recordCount
        sidecar.stratusSaveMilliseconds = stratusMilliseconds
        sidecar.baselineSaveMilliseconds = baselineMilliseconds
        sidecar.floorSaveMilliseconds = floor.milliseconds
        sidecar.stratusSaveBytes = stratusBytes
        sidecar.floorSaveBytes = floor.bytesWritten
        sidecar.storeBytes = BenchMeasurement.storeBytes(storePath)
        sidecar.save(sidecarPath)
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
    private func exportVenues(to file: URL) throws -> Int {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        return try store.database(.private).exportRecords(zone: zoneID, embedAssets: false, write: { try handle.write(contentsOf: $0) })
    }

    /// Imports the exported venues into a new store, then has SQLite alone copy the rows that
    /// import wrote into another new store with the same tables: what the indexes cost anyway.
    /// The floor writes its store the way the import wrote its own (in place under a rollback
    /// journal, or through the log); the other way's floor is reported beside it.
    private func measureImport() throws -> BenchResult {
        let file = directory.appendingPathComponent("export.jsonl")
        if !FileManager.default.fileExists(atPath: file.path) { _ = try exportVenues(to: file) }
        let imported = directory.appendingPathComponent("import.sqlite").path
        let copied = directory.appendingPathComponent("import-raw.sqlite").path
        func remove(_ paths: [String]) {
            for path in paths {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        remove([imported, copied])
        defer {
            remove([imported, copied])
            try? FileManager.default.removeItem(at: file)
        }
        var written = 0
        var inPlace = false
        let bytesBefore: Double?, bytesAfter: Double?
        let stratus: Double, size: Double
        // The imported store closes before the floor reads it (SQLite folds its log into the
        // file), so the floor reads the file, not pages through a log a still-open store left.
        do {
            let target = try StoreOpener.open(imported, ifMissing: .create)
            BenchMeasurement.settleDisk()
            bytesBefore = BenchMeasurement.bytesWritten()
            stratus = try BenchMeasurement.once {
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                written = try target.database(.private).importRecords(lines: handle, progress: { inPlace = $0.inPlace })
            }
            bytesAfter = BenchMeasurement.bytesWritten()
            // File and log as the import left them, before closing folds the log in.
            size = BenchMeasurement.storeBytes(imported)
        }
        func floor(inPlace: Bool) throws -> Double {
            remove([copied])
            _ = try StoreOpener.open(copied, ifMissing: .create)
            BenchMeasurement.settleDisk()
            return try BenchMeasurement.once { try SQLiteImportFloor.copyRows(of: imported, into: copied, inPlace: inPlace) }
        }
        let base = try floor(inPlace: inPlace)
        let otherBase = try floor(inPlace: !inPlace)
        var extras: [(String, Double)] = [("stratus_records_per_s", Double(written) / stratus * 1000),
                                          ("baseline_records_per_s", Double(written) / base * 1000),
                                          ("in_place", inPlace ? 1 : 0),
                                          (inPlace ? "wal_floor_ms" : "in_place_floor_ms", otherBase),
                                          (inPlace ? "wal_floor_ratio" : "in_place_floor_ratio", stratus / otherBase)]
        if let bytesBefore, let bytesAfter, size > 0 {
            extras += [("bytes_written", bytesAfter - bytesBefore), ("store_bytes", size), ("written_ratio", (bytesAfter - bytesBefore) / size)]
        }
        return BenchResult(name: BenchWorkload.import.rawValue, stratusMilliseconds: stratus, baselineMilliseconds: base, extras: extras)
    }

    private func measure(_ workload: BenchWorkload) throws -> BenchResult {
        let db = store.database(.private)
        let columns = BaselineStore.columns
        switch workload {
        case .save:
            fatalError("save is measured while building")
        case .queryEquality:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "category == %@", arguments: [.string("museum")]),
                                    "SELECT \(columns) FROM venue v WHERE category_folded = ? ORDER BY id LIMIT 100", ["museum"])
        case .queryRangeSort:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "rating >= 4.5", sortDescriptors: [QuerySort("rating", ascending: false)]),
                                    "SELECT \(columns) FROM venue v WHERE rating >= 4.5 ORDER BY rating DESC, id DESC LIMIT 100")
        case .queryBeginsWith:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "title BEGINSWITH %@", arguments: [.string("Quiet Mill")]),
                                    "SELECT \(columns) FROM venue v WHERE title >= ? AND title < ? ORDER BY title, id LIMIT 100", ["Quiet Mill", "Quiet Mill\u{10FFFF}"])
        case .queryTokens:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "self CONTAINS 'harbour'"),
                                    "SELECT \(columns) FROM venue_text t JOIN venue v ON v.id = t.rowid WHERE venue_text MATCH 'harbour' ORDER BY t.rowid LIMIT 100")
        case .queryLocation:
            let center = (latitude: 40.0, longitude: -100.0), kilometres = 25.0
            let degrees = kilometres / 111 + 0.01, longitudeDegrees = kilometres / (111 * cos(41 * Double.pi / 180)) + 0.01
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "distanceToLocation:fromLocation:(location, %@) < %@",
                                                    arguments: [.location(latitude: center.latitude, longitude: center.longitude), .double(kilometres)]),
                                    """
                                    SELECT \(columns) FROM venue_geo g JOIN venue v ON v.id = g.id
                                    WHERE g.max_latitude >= ? AND g.min_latitude <= ? AND g.max_longitude >= ? AND g.min_longitude <= ?
                                    AND bench_distance(v.latitude, v.longitude, ?, ?) < ? ORDER BY g.id LIMIT 100
                                    """,
                                    [center.latitude - degrees, center.latitude + degrees, center.longitude - longitudeDegrees, center.longitude + longitudeDegrees,
                                     center.latitude, center.longitude, kilometres].map(SQLiteFloorValue.real))
        case .queryList:
            return try compareQuery(workload, Query(recordType: "Venue", predicateFormat: "tags CONTAINS 'vegan'"),
                                    "SELECT \(columns) FROM venue_tag t JOIN venue v ON v.id = t.venue_id WHERE t.tag = 'vegan' ORDER BY t.venue_id LIMIT 100")
        case .queryAllByModified:
            return try compareQuery(workload, Query(recordType: "Venue", sortDescriptors: [QuerySort("modificationDate")]),
                                    "SELECT \(columns) FROM venue v ORDER BY modified, id LIMIT 100")
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
                baselineRows = try baseline.rows("SELECT \(columns) FROM venue v ORDER BY rating, title DESC, id DESC LIMIT 50")
            }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
        case .countType:
            return try compareCount(workload, Query(recordType: "Venue"), "SELECT count(*) FROM venue")
        case .countFiltered:
            return try compareCount(workload, Query(recordType: "Venue", predicateFormat: "rating >= 4.5"), "SELECT count(*) FROM venue WHERE rating >= 4.5")
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
                var last: (Int64, Int64) = (Int64.min, Int64.min)
                while baselineRows < target {
                    let page = try baseline.connection.rows("SELECT \(columns) FROM venue v WHERE price >= 50 AND (price, id) > (?, ?) ORDER BY price, id LIMIT 100",
                                                            [.integer(last.0), .integer(last.1)])
                    guard let tail = page.last, let price = tail["price"].integer, let id = tail["id"].integer else { break }
                    last = (price, id)
                    baselineRows += page.count
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
            let placeholders = Array(repeating: "?", count: names.count).joined(separator: ",")
            let base = try BenchMeasurement.times(runs: runs) {
                baselineRows = try baseline.rows("SELECT \(columns) FROM venue v WHERE name IN (\(placeholders))", names.map(SQLiteFloorValue.text))
            }
            return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
        case .playbackAfter10k, .playbackAfterAll:
            let token = workload == .playbackAfter10k ? sidecar.tokenAfter10k : sidecar.tokenNearEnd
            let sequence = workload == .playbackAfter10k ? sidecar.sequenceAfter10k : sidecar.sequenceNearEnd
            var stratusRows = 0, baselineRows = 0
            let stratus = try BenchMeasurement.times(runs: runs) {
                stratusRows = try db.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: 1000).changes.count
            }
            let base = try BenchMeasurement.times(runs: runs) {
                baselineRows = try baseline.rows("SELECT \(columns) FROM venue v WHERE seq > ? ORDER BY seq LIMIT 1000", [.integer(Int64(sequence ?? 0))])
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
            let base = try BenchMeasurement.times(runs: 2) { baselineRows = try baseline.rows("SELECT \(columns) FROM venue v") }
            let stratusMedian = BenchMeasurement.median(stratus), baseMedian = BenchMeasurement.median(base)
            return BenchResult(name: workload.rawValue, stratusMilliseconds: stratusMedian, baselineMilliseconds: baseMedian,
                               extras: [("stratus_records_per_s", Double(stratusRows) / stratusMedian * 1000),
                                        ("baseline_records_per_s", Double(baselineRows) / baseMedian * 1000)])
        case .currentToken:
            let stratus = try BenchMeasurement.times(runs: 200) { _ = try db.currentToken(for: zoneID) }
            let base = try BenchMeasurement.times(runs: 200) { _ = try baseline.rows("SELECT max(seq) FROM venue") }
            return result(workload, stratus, base, [])
        case .export:
            let file = directory.appendingPathComponent("export.jsonl")
            let rawFile = directory.appendingPathComponent("export-raw.jsonl")
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
                .measure(workload)
        case .serveModify200:
            // Each request saves 200 records: a tenth as many requests keeps the run as short.
            return try ServeBench(store: store, zoneID: zoneID, recordCount: recordCount, requestsPerClient: max(10, min(50, runs * 10)))
                .measure(workload)
        case .pull:
            return try PullBench(store: store, zoneID: zoneID, directory: directory).measure(workload)
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
                _ = try baseline.rows(last ? "SELECT * FROM venue ORDER BY rowid DESC LIMIT 50" : "SELECT count(*) FROM venue")
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
    private func compareCount(_ workload: BenchWorkload, _ query: Query, _ sql: String) throws -> BenchResult {
        let db = store.database(.private)
        var counted: Int?
        let stratus = try BenchMeasurement.times(runs: runs) { counted = try db.indexedCount(matching: query, inZoneWith: zoneID) }
        var expected = 0
        let base = try BenchMeasurement.times(runs: runs) {
            expected = Int(try baseline.connection.integer(sql) ?? 0)
        }
        guard let counted, counted == expected else {
            throw DashboardProbe.ProbeError(description: "\(workload.rawValue): the indexes counted \(counted.map(String.init) ?? "nothing"), SQLite \(expected)")
        }
        return result(workload, stratus, base, [("matches", Double(counted))])
    }

    private func compareQuery(_ workload: BenchWorkload, _ query: Query, _ sql: String, _ arguments: [SQLiteFloorValue] = []) throws -> BenchResult {
        let db = store.database(.private)
        var stratusRows = 0, baselineRows = 0
        let stratus = try BenchMeasurement.times(runs: runs) {
            stratusRows = try db.records(matching: query, inZoneWith: zoneID, resultsLimit: 100).records.count
        }
        let base = try BenchMeasurement.times(runs: runs) { baselineRows = try baseline.rows(sql, arguments) }
        return result(workload, stratus, base, [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))])
    }

    private func result(_ workload: BenchWorkload, _ stratus: [Double], _ baseline: [Double], _ extras: [(String, Double)]) -> BenchResult {
        BenchResult(name: workload.rawValue, stratusMilliseconds: BenchMeasurement.median(stratus),
                    baselineMilliseconds: BenchMeasurement.median(baseline), extras: extras)
    }
}
