import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
@testable import StratusPostgres
import StratusTestSupport
import StratusCloud

/// PostgreSQL answers queries from its own indexes: the planner and executor over its query
/// storage give SQLite's pages, cursors and tails for the differential test's random queries,
/// and a page reads about a page's rows of a large zone, never the zone.
@Suite struct PostgresQueryStorageTests {
    /// One store of each backend with the same records, saved in the same order.
    static func twinStores(records count: Int, seed: UInt64) throws -> (sqlite: TemporaryStore, postgres: TemporaryStore, zone: ZoneID) {
        let sqlite = try TestBackend.$current.withValue(.sqlite) { try TemporaryStore() }
        let postgres = try TestBackend.$current.withValue(.postgres) { try TemporaryStore() }
        let zone = try sqlite.zone("Random")
        #expect(try postgres.zone("Random") == zone)
        var random = SeededGenerator(seed: seed)
        let records = (0..<count).map { DifferentialQueryTests().randomRecord($0, zone: zone, random: &random) }
        for temp in [sqlite, postgres] {
            for start in stride(from: 0, to: records.count, by: 100) {
                _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<min(start + 100, records.count)])).savedRecords()
            }
        }
        return (sqlite, postgres, zone)
    }

    /// The executor over one store's query storage: every page's record names, and the tail.
    static func answer(_ temp: TemporaryStore, zone: ZoneID, format: String, arguments: [PredicateArgument], sorts: [QuerySort],
                       limit: Int) throws -> (pages: [[String]], tail: [String], driver: QueryPlan.Driver)? {
        try temp.store.read { db in
            let catalog = try temp.store.catalog(db)
            let type = try #require(catalog.type(named: "Thing"))
            let zoneRow = try AccessGate(temp.privateDB, db: db, catalog: catalog).zone(zone)
            guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: arguments, recordType: "Thing",
                                                                         schema: type.schema, sorts: sorts, now: Date()) else { return nil }
            let plan = QueryPlanner(type: type).plan(compiled)
            let storage = try db.records.queryStorage(zoneRowID: zoneRow.id, type: type)
            let executor = QueryExecutor(storage: storage, zoneRowID: zoneRow.id, type: type, query: compiled, plan: plan, limit: limit)
            let answer = try executor.pagesAndTail()
            return (answer.pages, answer.tail, plan.driver)
        }
    }

    @Test func postgresAnswersEveryQueryAsSQLiteDoes() throws {
        let (sqlite, postgres, zone) = try Self.twinStores(records: 200, seed: 31)
        #expect(!(sqlite.store.backend is PostgresBackend) && postgres.store.backend is PostgresBackend)
        let generator = DifferentialQueryTests()
        var random = SeededGenerator(seed: 43)
        var compared = 0, nonEmpty = 0
        for round in 0..<600 {
            let (predicate, arguments, sorts) = generator.randomQuery(random: &random)
            let limit = Int(random.next() % 40 + 8)
            guard let expected = try Self.answer(sqlite, zone: zone, format: predicate, arguments: arguments, sorts: sorts, limit: limit),
                  let got = try Self.answer(postgres, zone: zone, format: predicate, arguments: arguments, sorts: sorts, limit: limit) else { continue }
            // Modification times are each store's clock's: in their order, the same records are
            // enough. (Records saved in turn have both times and ids in saving order, so the
            // type's modification order, and the records lacking a sort field, agree.)
            if sorts.first?.key == "modificationDate" {
                #expect(Set(got.pages.joined()) == Set(expected.pages.joined()), "round \(round): \(predicate) sorts \(sorts.map(\.key))")
            } else {
                #expect(got.pages == expected.pages, "round \(round): \(predicate) sorts \(sorts.map(\.key)), driver \(expected.driver)")
                #expect(got.tail == expected.tail, "round \(round): the tail of \(predicate) sorts \(sorts.map(\.key))")
            }
            compared += 1
            if expected.pages.contains(where: { !$0.isEmpty }) { nonEmpty += 1 }
        }
        #expect(compared > 400)
        #expect(nonEmpty > 200)
    }

    /// 5,000 records: a first page of 10 sorted by a field, the next page through its cursor,
    /// and a page of a range each read a few dozen rows (every row PostgreSQL answered the
    /// store's transactions, counted), where indexing the zone as the query starts read 5,000;
    /// and PostgreSQL's own plan of a range page touches about the page's rows.
    @Test func aPageReadsAboutAPageOfRowsNotTheZone() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try Store.postgres(url, creating: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let db = store.database(.private)
        let zone = ZoneID(zoneName: "Big")
        try db.modifyRecordZones(saving: [zone])
        let records = (0..<5_000).map { index in
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["rank"] = .int64(Int64(index * 7_919 % 5_000))
            record["title"] = .string("item \(index % 97)")
            return record
        }
        try db.writeInBulk(itemsPerTransaction: 5_000) { writer in
            for start in stride(from: 0, to: records.count, by: 400) {
                _ = try writer.modifyRecords(saving: Array(records[start..<min(start + 400, records.count)])).savedRecords()
            }
        }
        func rowsRead(_ body: () throws -> QueryResultsPage) throws -> (page: QueryResultsPage, rows: Int) {
            let before = backend.rowsRead
            let page = try body()
            return (page, backend.rowsRead - before)
        }
        func ranks(_ page: QueryResultsPage) -> [FieldValue?] { page.records.map { $0["rank"] } }
        let sorted = Query(recordType: "Item", sortDescriptors: [QuerySort("rank", ascending: true)])
        let first = try rowsRead { try db.records(matching: sorted, inZoneWith: zone, resultsLimit: 10) }
        #expect(ranks(first.page) == (0..<10).map { .int64($0) })
        let cursor = try #require(first.page.cursor)
        let next = try rowsRead { try db.records(continuingMatchFrom: cursor, resultsLimit: 10) }
        #expect(ranks(next.page) == (10..<20).map { .int64($0) })
        let ranged = Query(recordType: "Item", predicateFormat: "rank >= 2500", sortDescriptors: [QuerySort("rank", ascending: false)])
        let range = try rowsRead { try db.records(matching: ranged, inZoneWith: zone, resultsLimit: 10) }
        #expect(ranks(range.page) == (4_990..<5_000).reversed().map { .int64(Int64($0)) })
        for (what, rows) in [("the first page", first.rows), ("the next page", next.rows), ("a range's page", range.rows)] {
            #expect(rows < 100, "\(what) of 10 read \(rows) rows of a 5,000-record zone")
        }

        let location = try PostgresLocation(url: url)
        let link = try PostgresLink.connect(to: location)
        defer { link.close() }
        try link.script("SET search_path TO \"\(location.schema)\"")
        let zoneRowID = try #require(try link.integer("SELECT id FROM zone WHERE name = 'Big'"))
        let type = try #require(try store.read { try store.catalog($0).type(named: "Item") })
        let rank = try #require(type.fieldIDs["rank"])
        let statement = try PostgresDriverStatement(zoneRowID: zoneRowID, typeID: type.id)
            .rows(of: .range(fieldID: rank, lower: QueryPlan.Bound(value: .integer(2_500), inclusive: true), upper: nil, isList: false),
                  descending: false, afterKey: .integer(3_000), afterID: 1, count: 10, backwards: false)
        let plan = try link.rows("EXPLAIN (ANALYZE, FORMAT TEXT) " + statement.sql, statement.binds).map { try $0.string(0) }
        #expect(Self.rowsTouched(plan) < 100, "the plan of a page of 10 touched more than a page:\n\(plan.joined(separator: "\n"))")

        // A deep page of a range starts its index scan at its keyset position, not at the
        // range's bound, and stops at the bound at its far end, whichever way it reads: it
        // steps over no rows before the page, nor after the range. A page of 10 reads ten
        // rows from the table and two or three index pages (`most`); the last page of a range
        // (`after` at its end) reads one or two index pages and no rows.
        let title = try #require(type.fieldIDs["title"])
        func bound(_ value: IndexValue, _ inclusive: Bool) -> QueryPlan.Bound { QueryPlan.Bound(value: value, inclusive: inclusive) }
        let ranges: [(field: Int64, lower: QueryPlan.Bound?, upper: QueryPlan.Bound?, descending: Bool, after: IndexValue, id: Int64, most: Int)] = [
            (rank, bound(.integer(0), true), nil, false, .integer(4_980), 1, 25),
            (rank, bound(.integer(1), false), bound(.integer(4_999), true), false, .integer(4_980), 1, 25),
            (rank, nil, bound(.integer(5_000), false), true, .integer(20), 1, 25),
            (rank, bound(.real(0.5), true), bound(.integer(4_999), false), true, .integer(20), 1, 25),
            (rank, bound(.integer(0), true), bound(.integer(2_000), false), false, .integer(1_999), .max, 8),
            (rank, bound(.integer(3_000), true), bound(.integer(4_000), true), true, .integer(3_000), .min, 8),
            // `title BEGINSWITH 'item 1'` ("item 1", "item 10" to "item 19"), at its end.
            (title, bound(.text("item 1"), true), bound(.text("item 2"), false), false, .text("item 19"), .max, 8),
            (title, bound(.text("item 8"), true), bound(.text("item 9"), false), true, .text("item 8"), .min, 8),
        ]
        for range in ranges {
            let deep = try PostgresDriverStatement(zoneRowID: zoneRowID, typeID: type.id)
                .rows(of: .range(fieldID: range.field, lower: range.lower, upper: range.upper, isList: false),
                      descending: range.descending, afterKey: range.after, afterID: range.id, count: 10, backwards: false)
            let deepPlan = try link.rows("EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) " + deep.sql, deep.binds).map { try $0.string(0) }
            let pages = try #require(Self.indexPagesRead(deepPlan), "no index scan on field_value:\n\(deepPlan.joined(separator: "\n"))")
            #expect(pages < range.most, "a page of 10 after \(range.after) read \(pages) pages:\n\(deepPlan.joined(separator: "\n"))")
        }
    }

    /// The buffers (pages) the scan of `field_value` by its key index read, of the index and
    /// the table, in an `EXPLAIN (ANALYZE, BUFFERS)` plan: the first `Buffers:` line after it.
    static func indexPagesRead(_ plan: [String]) -> Int? {
        guard let node = plan.firstIndex(where: { $0.contains("on field_value") }),
              let line = plan[node...].first(where: { $0.contains("Buffers:") }) else { return nil }
        var pages = 0
        for kind in ["hit", "read"] {
            if let found = line.range(of: "\(kind)=[0-9]+", options: .regularExpression) {
                pages += Int(line[found].dropFirst(kind.count + 1)) ?? 0
            }
        }
        return pages
    }

    /// Every row each node of an `EXPLAIN ANALYZE` plan produced (rows × loops) or filtered
    /// out: more than the rows read from tables, never fewer.
    static func rowsTouched(_ plan: [String]) -> Int {
        var total = 0
        for line in plan {
            if let produced = line.range(of: #"actual time=[0-9.]+\.\.[0-9.]+ rows=([0-9]+) loops=([0-9]+)"#, options: .regularExpression) {
                let numbers = line[produced].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                total += numbers[numbers.count - 2] * numbers[numbers.count - 1]
            }
            if let removed = line.range(of: #"Rows Removed by [A-Za-z ]+: ([0-9]+)"#, options: .regularExpression) {
                total += Int(line[removed].split(separator: " ").last ?? "") ?? 0
            }
        }
        return total
    }
}
