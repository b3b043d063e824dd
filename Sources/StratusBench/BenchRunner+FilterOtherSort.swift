import StratusEngine
import StratusModel
import StratusPredicates
import StratusCloud
import StratusSQLite

/// `query-filter-other-sort`: queries whose filter is on one field and whose order is another's,
/// so no one index gives both. A token search sorted by rating, and a price range sorted by
/// rating then title; each as its first page and as its 50th page through the cursor.
extension BenchRunner {
    static let deepPage = 50

    func measureFilterOtherSort(_ workload: BenchWorkload) throws -> BenchResult {
        let cases: [(name: String, query: Query, page: BaselinePage, keys: [String])] = [
            ("tokens", Query(recordType: "Venue", predicateFormat: "self CONTAINS 'harbour'", sortDescriptors: [QuerySort("rating")]),
             .wordByRating("harbour"), ["rating"]),
            ("range-two-sorts", Query(recordType: "Venue", predicateFormat: "price > 150", sortDescriptors: [QuerySort("rating"), QuerySort("title")]),
             .priceAboveByRatingThenTitle(150), ["rating", "title"]),
        ]
        var extras: [(String, Double)] = []
        var stratusTotal = 0.0, baselineTotal = 0.0
        var stratusRows = 0, baselineRows = 0
        for item in cases {
            for deep in [false, true] {
                let (stratus, stratusCount, startRecord) = try stratusPage(item.query, deep: deep)
                let (base, baseCount) = try baselinePage(item.page, deep: deep)
                let label = "\(item.name)_\(deep ? "page\(Self.deepPage)" : "first")"
                extras += [("\(label)_ms", stratus), ("\(label)_baseline_ms", base), ("\(label)_ratio", stratus / max(base, 0.000_001))]
                if item.keys.count > 1, case .folder = place!, let startRecord, case .double(let value)? = startRecord[item.keys[0]] {
                    // What the layout alone costs this page: reading the whole group it starts in.
                    let floor = try layoutFloor(startRecord, field: item.keys[0], value: value)
                    extras += [("\(label)_layout_floor_ms", floor.milliseconds), ("\(label)_layout_floor_rows", Double(floor.rows)),
                               ("\(label)_layout_floor_baseline_ratio", floor.milliseconds / max(base, 0.000_001))]
                }
                stratusTotal += stratus
                baselineTotal += base
                stratusRows += stratusCount
                baselineRows += baseCount
            }
        }
        extras += [("stratus_rows", Double(stratusRows)), ("baseline_rows", Double(baselineRows))]
        return BenchResult(name: workload.rawValue, stratusMilliseconds: stratusTotal, baselineMilliseconds: baselineTotal, extras: extras)
    }

    /// The median time of the first page, or of page 50 fetched from the cursor of page 49;
    /// and the record whose first sort value is the group the page starts in (the first page's
    /// first record, or the one page 50's cursor follows).
    private func stratusPage(_ query: Query, deep: Bool) throws -> (milliseconds: Double, rows: Int, startRecord: StratusCloud.Record?) {
        let db = store.database(.private)
        var cursor: String?
        var startRecord: StratusCloud.Record?
        if deep {
            var page = try db.records(matching: query, inZoneWith: zoneID, resultsLimit: 100)
            for _ in 1..<(Self.deepPage - 1) {
                guard let next = page.cursor else { break }
                page = try db.records(continuingMatchFrom: next, resultsLimit: 100)
            }
            cursor = page.cursor
            startRecord = page.records.last
            if cursor == nil { return (0, 0, nil) }
        }
        var rows = 0
        let times = try BenchMeasurement.times(runs: runs) {
            let page = try cursor.map { try db.records(continuingMatchFrom: $0, resultsLimit: 100) }
                ?? db.records(matching: query, inZoneWith: zoneID, resultsLimit: 100)
            rows = page.records.count
            if !deep { startRecord = page.records.first }
        }
        return (BenchMeasurement.median(times), rows, startRecord)
    }

    /// SQLite alone reading the whole first-sort group the page starts in, from Stratus's store
    /// (a file store's layout; not measured on PostgreSQL).
    private func layoutFloor(_ startRecord: StratusCloud.Record, field: String, value: Double) throws -> (milliseconds: Double, rows: Int) {
        guard let read = try SQLiteLayoutFloor(storePath: store.path).groupReader(zoneName: zoneID.zoneName, recordName: startRecord.recordName,
                                                                                  recordType: startRecord.recordType, field: field, value: value)
        else { return (0, 0) }
        var rows = 0
        let times = try BenchMeasurement.times(runs: runs) { rows = try read() }
        return (BenchMeasurement.median(times), rows)
    }

    private func baselinePage(_ page: BaselinePage, deep: Bool) throws -> (milliseconds: Double, rows: Int) {
        var after: [BenchValue]?
        if deep {
            for _ in 1..<Self.deepPage {
                guard let last = try baseline.page(page, after: after, keys: true).last else { return (0, 0) }
                after = last
            }
        }
        var rows = 0
        let times = try BenchMeasurement.times(runs: runs) { rows = try baseline.page(page, after: after, keys: false).rows }
        return (BenchMeasurement.median(times), rows)
    }
}
