import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// The end of a query with several sorts, read backwards from the first sort's index a run of
/// equal values at a time: the same records as the end of every page, and only the last runs
/// read, not every match.
@Suite struct GroupedTailTests {
    /// 6,000 items: `n` in 50 runs of about 120 (one in 100 lacks it), `u` unique, `k` 0 or 1
    /// (3,000 match `k == 1`: enough that its pages stream from `n`'s index too).
    static func store() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Items")
        let records = (0..<6_000).map { index -> StratusCloud.Record in
            var record = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            if index % 100 != 7 { record["n"] = .int64(Int64(index % 50)) }
            record["u"] = .int64(Int64(index * 7_919 % 6_000))
            record["k"] = .int64(Int64(index % 2))
            return record
        }
        for start in stride(from: 0, to: records.count, by: 400) {
            _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<min(start + 400, records.count)])).savedRecords()
        }
        return (temp, zone)
    }

    @Test func theEndOfSeveralSortsReadsOnlyItsLastRuns() throws {
        let (temp, zone) = try Self.store()
        let sortings = [[QuerySort("n"), QuerySort("u", ascending: false)], [QuerySort("n", ascending: false), QuerySort("u")]]
        for format in ["TRUEPREDICATE", "k == 1"] {
            for sorts in sortings {
                let query = Query(recordType: "Item", predicateFormat: format, sortDescriptors: sorts)
                // Every page, in order: the answer the tail must end.
                var page = try temp.privateDB.records(matching: query, inZoneWith: zone, resultsLimit: 400)
                var all = page.records
                while let cursor = page.cursor {
                    page = try temp.privateDB.records(continuingMatchFrom: cursor, resultsLimit: 400)
                    all += page.records
                }
                let label = "\(format) sorted by \(sorts.map { "\($0.key)\($0.ascending ? "↑" : "↓")" })"
                #expect(all.count == (format == "k == 1" ? 3_000 : 6_000), "\(label)")
                let tail = try temp.privateDB.lastRecords(matching: query, inZoneWith: zone, resultsLimit: 90)
                #expect(tail.map(\.recordName) == all.suffix(90).map(\.recordName), "\(label)")

                try QueryStorages.read(temp, zone: zone, type: "Item") { (storages: QueryStorages) throws in
                    guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Item",
                                                                                 schema: storages.type.schema, sorts: sorts, now: Date()) else {
                        Issue.record("\(format) does not compile")
                        return
                    }
                    let storage = CountingQueryStorage(storages.sqlite)
                    let executor = QueryExecutor(storage: storage, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled,
                                                 plan: QueryPlanner(type: storages.type).plan(compiled), limit: 90)
                    #expect(try executor.runTail().map(\.stored.name) == all.suffix(90).map(\.recordName), "\(label)")
                    // The 60 lacking `n` (30 with `k == 1`) end the result; the runs before them
                    // come 360 rows a read, and one or two reads fill the tail.
                    #expect(storage.recordsRead <= 800, "\(label): \(storage.recordsRead) records read for the last 90")
                }
            }
        }
    }
}
