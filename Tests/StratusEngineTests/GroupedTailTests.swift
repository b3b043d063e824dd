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
        try items(6_000) { index, record in
            if index % 100 != 7 { record["n"] = .int64(Int64(index % 50)) }
            record["u"] = .int64(Int64(index * 7_919 % 6_000))
            record["k"] = .int64(Int64(index % 2))
        }
    }

    /// A store of `count` items named `i0`... in zone `Items`, each given its fields by `fill`,
    /// saved 400 at a time.
    static func items(_ count: Int, _ fill: (Int, inout StratusCloud.Record) -> Void) throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Items")
        let records = (0..<count).map { index -> StratusCloud.Record in
            var record = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            fill(index, &record)
            return record
        }
        for start in stride(from: 0, to: records.count, by: 400) {
            _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<min(start + 400, records.count)])).savedRecords()
        }
        return (temp, zone)
    }

    /// Every page of `query`, in order: the answer a tail must end.
    static func everyPage(_ query: Query, _ temp: TemporaryStore, _ zone: ZoneID) throws -> [StratusCloud.Record] {
        var page = try temp.privateDB.records(matching: query, inZoneWith: zone, resultsLimit: 400)
        var all = page.records
        while let cursor = page.cursor {
            page = try temp.privateDB.records(continuingMatchFrom: cursor, resultsLimit: 400)
            all += page.records
        }
        return all
    }

    @Test func theEndOfSeveralSortsReadsOnlyItsLastRuns() throws {
        let (temp, zone) = try Self.store()
        let sortings = [[QuerySort("n"), QuerySort("u", ascending: false)], [QuerySort("n", ascending: false), QuerySort("u")]]
        for format in ["TRUEPREDICATE", "k == 1"] {
            for sorts in sortings {
                let query = Query(recordType: "Item", predicateFormat: format, sortDescriptors: sorts)
                let all = try Self.everyPage(query, temp, zone)
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

    /// 2,400 items in three large runs of `n` (24 lack it), `u` unique and, unless `lackingU`,
    /// on every item; `k` 0 to 3.
    static func largeRunsStore(lackingU: Bool) throws -> (TemporaryStore, ZoneID) {
        try items(2_400) { index, record in
            if index % 100 != 7 { record["n"] = .int64(Int64(index % 3)) }
            if !lackingU || index % 500 != 3 { record["u"] = .int64(Int64(index * 7_919 % 600)) }
            record["k"] = .int64(Int64(index % 4))
        }
    }

    @Test func theEndOfALargeLastGroupWalksTheSecondSortsIndex() throws {
        for lackingU in [false, true] {
            let (temp, zone) = try Self.largeRunsStore(lackingU: lackingU)
            let sortings = [[QuerySort("n"), QuerySort("u", ascending: false)], [QuerySort("n", ascending: false), QuerySort("u")]]
            for format in ["TRUEPREDICATE", "k == 1", "k != 2"] {
                for sorts in sortings {
                    let query = Query(recordType: "Item", predicateFormat: format, sortDescriptors: sorts)
                    let all = try Self.everyPage(query, temp, zone)
                    let label = "\(format) sorted by \(sorts.map { "\($0.key)\($0.ascending ? "↑" : "↓")" }), some lacking u: \(lackingU)"
                    try QueryStorages.read(temp, zone: zone, type: "Item") { (storages: QueryStorages) throws in
                        guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Item",
                                                                                     schema: storages.type.schema, sorts: sorts, now: Date()) else {
                            Issue.record("\(format) does not compile")
                            return
                        }
                        let plan = QueryPlanner(type: storages.type).plan(compiled)
                        for (name, seam) in [("SQLite", storages.sqlite), ("memory", storages.memory)] as [(String, any QueryStorage)] {
                            for limit in [20, 90, 700] {
                                let storage = CountingQueryStorage(seam)
                                var executor = QueryExecutor(storage: storage, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled,
                                                             plan: plan, limit: limit)
                                executor.walkableGroupSize = 100
                                #expect(try executor.runTail().map(\.stored.name) == all.suffix(limit).map(\.recordName), "\(label), \(name), last \(limit)")
                                // Walking never: the run is read whole, with the same answer.
                                var reading = executor
                                reading.walkableGroupSize = .max
                                #expect(try reading.runTail().map(\.stored.name) == all.suffix(limit).map(\.recordName), "\(label), \(name), last \(limit)")
                                // The walk refuses a group where some lack `u`, and gives
                                // the group's end exactly when it walks.
                                let lacking = all.suffix(limit).filter { $0["n"] == nil }.count
                                let walked = try executor.walkLastGroup(needed: limit - lacking)
                                if lackingU { #expect(walked == nil, "\(label), \(name), last \(limit)") }
                                if let walked {
                                    #expect(walked.map(\.record.stored.name) == all.suffix(limit).prefix(limit - lacking).map(\.recordName),
                                            "\(label), \(name), last \(limit)")
                                }
                                guard !lackingU, format == "TRUEPREDICATE", limit == 90 else { continue }
                                #expect(walked != nil, "\(label), \(name)")
                                // The 24 lacking `n` and the group's last 66, not the group's 800.
                                let counting = CountingQueryStorage(seam)
                                var reader = QueryExecutor(storage: counting, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled,
                                                       plan: plan, limit: limit)
                                reader.walkableGroupSize = 100
                                _ = try reader.runTail()
                                #expect(counting.recordsRead <= 150, "\(label), \(name): \(counting.recordsRead) records read")
                            }
                        }
                    }
                }
            }
        }
    }
}
