import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// Queries that collect their candidates' ids and load the matches by id (sorted in memory, a
/// cursor's list of what follows, the records lacking the sort field) load them a batch at a
/// time: on a server database each load is a round trip, and a page of 100 was 100 of them.
@Suite struct BatchedLoadTests {
    /// 1,200 items: `k` 0, 1 or 2 (400 with `k == 1`, too few to stream from `u`'s index), `u`
    /// unique, and one in 50 lacking `u`.
    static func store() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Items")
        let records = (0..<1_200).map { index -> StratusCloud.Record in
            var record = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["k"] = .int64(Int64(index % 3))
            if index % 50 != 4 { record["u"] = .int64(Int64(index * 7_919 % 1_200)) }
            return record
        }
        for start in stride(from: 0, to: records.count, by: 400) {
            _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<min(start + 400, records.count)])).savedRecords()
        }
        return (temp, zone)
    }

    /// Runs `format` sorted by `sorts` through a counting storage, page by page (100 a page),
    /// and checks the pages against the database's own answer and how each page loaded.
    private func pages(_ format: String, sorts: [QuerySort], in temp: TemporaryStore, zone: ZoneID,
                       _ check: (_ page: Int, _ storage: CountingQueryStorage) -> Void) throws {
        let query = Query(recordType: "Item", predicateFormat: format, sortDescriptors: sorts)
        var expected: [[String]] = []
        var page = try temp.privateDB.records(matching: query, inZoneWith: zone, resultsLimit: 100)
        expected.append(page.records.map(\.recordName))
        while let cursor = page.cursor {
            page = try temp.privateDB.records(continuingMatchFrom: cursor, resultsLimit: 100)
            expected.append(page.records.map(\.recordName))
        }
        try QueryStorages.read(temp, zone: zone, type: "Item") { (storages: QueryStorages) throws in
            guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Item",
                                                                         schema: storages.type.schema, sorts: sorts, now: Date()) else {
                Issue.record("\(format) does not compile")
                return
            }
            var position: QueryCursor.Position?
            var read: [[String]] = []
            repeat {
                let storage = CountingQueryStorage(storages.sqlite)
                var executor = QueryExecutor(storage: storage, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled,
                                             plan: QueryPlanner(type: storages.type).plan(compiled), limit: 100)
                executor.lookaheadStamp = LookaheadStamp(zoneRowID: storages.zoneRowID, incarnation: 1, changeSequence: 1, schemaVersion: 1)
                let (records, next) = try executor.run(after: position)
                read.append(records.map(\.stored.name))
                check(read.count, storage)
                position = next
            } while position != nil && read.count < 20
            #expect(read == expected, "\(format)")
        }
    }

    @Test func matchesSortedInMemoryLoadInOneBatch() throws {
        let (temp, zone) = try Self.store()
        // 400 candidates sorted by `u` in memory: the first page loads them in one call; the
        // pages after it load the ids their cursor lists, a page and one more at a time.
        try pages("k == 1", sorts: [QuerySort("u")], in: temp, zone: zone) { page, storage in
            #expect(storage.singleLoads == 0, "page \(page)")
            #expect(storage.batchLoads >= 1 && storage.batchLoads <= 2, "page \(page): \(storage.batchLoads) batches")
        }
    }

    @Test func matchesWithoutASortLoadAPageAndOneMoreAtATime() throws {
        let (temp, zone) = try Self.store()
        // 800 candidates of two values, in id order: each page loads itself and the one record
        // that says more follow, in one call.
        try pages("k IN {0, 1}", sorts: [], in: temp, zone: zone) { page, storage in
            #expect(storage.singleLoads == 0, "page \(page)")
            #expect(storage.batchLoads == 1, "page \(page): \(storage.batchLoads) batches")
            #expect(storage.recordsRead <= 101, "page \(page): \(storage.recordsRead) records read")
        }
    }
}
