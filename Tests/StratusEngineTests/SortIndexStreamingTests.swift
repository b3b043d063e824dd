import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// A selective term with a sort on another field: when the term matches many records, pages
/// stream from the sort field's index (checking the term on each record) instead of loading and
/// sorting every match; the answer is the same either way.
@Suite(.onEveryBackend) struct SortIndexStreamingTests {
    /// Several sorts: the first one's index streams, each run of equal values sorted by the
    /// others. With a unique last sort the order is fully determined, so it is checked exactly.
    @Test func severalSortsStreamInGroupsInExactlyTheirOrder() throws {
        let (temp, zone, all) = try Self.store()
        let db = temp.privateDB
        let schema = try #require(try temp.store.recordTypes().first { $0.name == "Thing" })
        let sorts = [[QuerySort("n"), QuerySort("u", ascending: false)], [QuerySort("n", ascending: false), QuerySort("s"), QuerySort("u")]]
        for format in ["TRUEPREDICATE", "self CONTAINS 'common'", "k == 0", "n > 50", "n <= -90"] {
            for sort in sorts {
                let query = Query(recordType: "Thing", predicateFormat: format, sortDescriptors: sort)
                guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Thing", schema: schema,
                                                                             sorts: sort, now: Date()) else {
                    Issue.record("\(format) does not compile")
                    continue
                }
                let expected = Self.inMemoryAnswer(all, filter: compiled.filter, sorts: sort)
                var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 70)
                var got = page.records
                while let cursor = page.cursor {
                    page = try db.records(continuingMatchFrom: cursor, resultsLimit: 70)
                    got += page.records
                }
                let label = "\(format) sorted by \(sort.map { "\($0.key)\($0.ascending ? "↑" : "↓")" })"
                #expect(got.map(\.recordName) == expected.map(\.recordName), "\(label)")
                let tail = try db.lastRecords(matching: query, inZoneWith: zone, resultsLimit: 90)
                #expect(tail.map(\.recordName) == expected.suffix(90).map(\.recordName), "\(label): the end read backwards")
            }
        }
    }

    @Test func manyMatchesStreamFromTheSortIndexAndAnswerTheSame() throws {
        let (temp, zone, all) = try Self.store()
        let db = temp.privateDB
        let schema = try #require(try temp.store.recordTypes().first { $0.name == "Thing" })
        let cases: [(String, QuerySort, streams: Bool)] = [
            ("self CONTAINS 'common'", QuerySort("n"), true),
            ("self CONTAINS 'common'", QuerySort("n", ascending: false), true),
            ("k == 1", QuerySort("s"), true),
            ("k == 1 AND self CONTAINS 'common'", QuerySort("n", ascending: false), true),
            ("self CONTAINS 'rare'", QuerySort("n"), false),
            ("k == 0", QuerySort("s", ascending: false), false),
            // A range on another field: streamed when it matches most records, its matches
            // loaded and sorted when it matches few (not the whole sort index read for them).
            ("n > -80", QuerySort("s"), true),
            ("n <= -90", QuerySort("s"), false),
            ("n BETWEEN {-99, -80}", QuerySort("u", ascending: false), false),
            // Streamed with a filter that keeps few of the rows read: after a chunk, rows bring
            // only the filter's fields and a record is loaded when it passes.
            ("k == 1 AND n > 90", QuerySort("s"), true),
        ]
        for (format, sort, streams) in cases {
            let query = Query(recordType: "Thing", predicateFormat: format, sortDescriptors: [sort])
            guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Thing", schema: schema,
                                                                         sorts: [sort], now: Date()) else {
                Issue.record("\(format) does not compile")
                continue
            }
            let expected = all.filter { compiled.filter.matches(DifferentialQueryTests.Adapter(record: $0)) }
            var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 70)
            let firstCursor = try #require(page.cursor, "\(format): more than a page")
            // Which way the page was read: from the sort index (a keyset position) or sorted in memory.
            let position = try QueryCursor.decode(firstCursor, storeID: temp.store.storeID).position
            if case .streaming = position { #expect(streams, "\(format) streamed") } else { #expect(!streams, "\(format) did not stream: \(position)") }
            var got = page.records
            while let cursor = page.cursor {
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: 70)
                got += page.records
            }
            #expect(got.count == expected.count, "\(format)")
            #expect(Set(got.map(\.recordName)) == Set(expected.map(\.recordName)), "\(format)")
            let values = got.map { $0[sort.key] }
            let present = values.prefix { $0 != nil }
            #expect(values.dropFirst(present.count).allSatisfy { $0 == nil }, "\(format): records lacking \(sort.key) come last")
            for (a, b) in zip(present, present.dropFirst()) {
                let order = SortOrder.compare(a!, b!)
                #expect(sort.ascending ? order <= 0 : order >= 0, "\(format): in \(sort.key) order")
            }
            let tail = try db.lastRecords(matching: query, inZoneWith: zone, resultsLimit: 90)
            #expect(tail.map(\.recordName) == got.suffix(90).map(\.recordName), "\(format): the end read backwards")
        }
    }

    /// Deciding whether to stream counts a range's records inside SQLite, up to a limit: the
    /// same count as collecting its ids, for either bound, inclusive or not, and none.
    @Test(.sqliteOnly("compares with SQLite's query storage")) func aRangeIsCountedAsItsIdsAre() throws {
        let (temp, zone, all) = try Self.store()
        try QueryStorages.read(temp, zone: zone, type: "Thing") { storages in
            let storage = storages.sqlite
            let field = try #require(storages.type.fieldIDs["n"])
            let values = all.compactMap { record -> Int64? in if case .int64(let n)? = record["n"] { n } else { nil } }
            let bounds: [(QueryPlan.Bound?, QueryPlan.Bound?, (Int64) -> Bool)] = [
                (QueryPlan.Bound(value: .integer(50), inclusive: false), nil, { $0 > 50 }),
                (QueryPlan.Bound(value: .integer(50), inclusive: true), nil, { $0 >= 50 }),
                (nil, QueryPlan.Bound(value: .integer(-90), inclusive: true), { $0 <= -90 }),
                (QueryPlan.Bound(value: .integer(-10), inclusive: true), QueryPlan.Bound(value: .integer(10), inclusive: false), { $0 >= -10 && $0 < 10 }),
                (QueryPlan.Bound(value: .integer(1_000), inclusive: false), nil, { $0 > 1_000 }),
                (nil, nil, { _ in true }),
            ]
            for (lower, upper, holds) in bounds {
                let driver = QueryPlan.Driver.range(fieldID: field, lower: lower, upper: upper, isList: false)
                let expected = values.filter(holds).count
                #expect(try storage.candidateIDs(of: driver, stoppingAt: .max).count == expected)
                for limit in [1, 100, 2_000, 10_000] {
                    #expect(try storage.countIDs(of: driver, upTo: limit) == min(expected, limit), "\(String(describing: lower)) \(String(describing: upper)) up to \(limit)")
                }
            }
        }
    }

    /// The records lacking a sort field end its answer; when its index holds a row for every
    /// record, none is searched for. `n` is missing from a tenth of the things, `u` and `s` from
    /// none; deleting one thing's `u` makes it lacking, and it then ends the answer.
    @Test(.sqliteOnly("compares with SQLite's query storage")) func recordsLackingTheSortFieldAreSearchedOnlyWhenSomeExist() throws {
        let (temp, zone, all) = try Self.store()
        /// How many things lack the field, by SQLite and by the seam's second storage.
        func lacking(_ name: String) throws -> [Int] {
            try QueryStorages.read(temp, zone: zone, type: "Thing") { storages in
                let field = try #require(storages.type.fieldIDs[name])
                let (sqlite, memory) = (try storages.sqlite.lackingCount(fieldID: field), try storages.memory.lackingCount(fieldID: field))
                #expect(sqlite.records == 3_000 && memory.records == 3_000)
                return [sqlite.lacking, memory.lacking]
            }
        }
        let withoutN = all.filter { $0["n"] == nil }.count
        #expect(withoutN > 200, "about a tenth: found by loading records in modification order")
        #expect(try lacking("n") == [withoutN, withoutN])
        // The records lacking a field, in modification order from a position, either way: what
        // SQLite finds (skipping the ids its index holds) is what the seam's storage finds.
        try QueryStorages.read(temp, zone: zone, type: "Thing") { storages in
            let field = try #require(storages.type.fieldIDs["n"])
            for backwards in [false, true] {
                let all = try storages.memory.modificationOrder(after: nil, count: .max, backwards: backwards, lackingField: field)
                #expect(all.count == withoutN)
                for (start, count) in [(nil, Int.max), (all[10], 25), (all[withoutN - 3], 100)] {
                    let sqlite = try storages.sqlite.modificationOrder(after: start, count: count, backwards: backwards, lackingField: field)
                    let memory = try storages.memory.modificationOrder(after: start, count: count, backwards: backwards, lackingField: field)
                    #expect(sqlite.map(\.id) == memory.map(\.id) && sqlite.map(\.modifiedAt) == memory.map(\.modifiedAt))
                    #expect(!sqlite.isEmpty)
                }
            }
        }
        #expect(try lacking("u") == [0, 0])
        #expect(try lacking("s") == [0, 0])
        var thing = try #require(try temp.privateDB.records(for: [RecordID(recordName: "t7", zoneID: zone)]).first).result.get()
        thing["u"] = nil
        _ = try temp.privateDB.modifyRecords(saving: [thing]).savedRecords()
        // One of 3,000: found by one pass over the indexes.
        #expect(try lacking("u") == [1, 1])
        let query = Query(recordType: "Thing", predicateFormat: "TRUEPREDICATE", sortDescriptors: [QuerySort("u")])
        var page = try temp.privateDB.records(matching: query, inZoneWith: zone, resultsLimit: 400)
        var names = page.records.map(\.recordName)
        while let cursor = page.cursor {
            page = try temp.privateDB.records(continuingMatchFrom: cursor, resultsLimit: 400)
            names += page.records.map(\.recordName)
        }
        #expect(names.count == 3_000)
        #expect(names.last == "t7", "the one thing without u comes last")
        #expect(try temp.privateDB.lastRecords(matching: query, inZoneWith: zone, resultsLimit: 1).map(\.recordName) == ["t7"])
    }

    /// A streaming cursor holds the last index value it read; one holding a value no index
    /// holds (a date, written by hand) is refused as stale instead of being read as no key.
    @Test func aCursorWhoseKeyNoIndexHoldsIsRefused() throws {
        let (temp, zone, _) = try Self.store()
        let db = temp.privateDB
        let query = Query(recordType: "Thing", predicateFormat: "n > 0", sortDescriptors: [QuerySort("n")])
        let first = try db.records(matching: query, inZoneWith: zone, resultsLimit: 10)
        var cursor = try QueryCursor.decode(try #require(first.cursor), storeID: temp.store.storeID)
        guard case .streaming(let key?, let id) = cursor.position else {
            Issue.record("the page did not stream: \(cursor.position)")
            return
        }
        #expect(key == .int64(first.records.last!["n"].flatMap { if case .int64(let n) = $0 { n } else { nil } }!))
        #expect(try db.records(continuingMatchFrom: cursor.encoded(storeID: temp.store.storeID), resultsLimit: 10).records.count == 10)
        cursor.position = .streaming(key: .timestamp(Date(timeIntervalSince1970: 0)), id: id)
        #expect {
            try db.records(continuingMatchFrom: cursor.encoded(storeID: temp.store.storeID), resultsLimit: 10)
        } throws: { error in
            (error as? CloudKitError)?.code == .invalidArguments
        }
    }

    /// Deep pages walked through the second sort's index give exactly the pages read group by
    /// group: the same records in the same order, the same cursors, in either direction of
    /// either sort, with a residual term, ties on the second value, strings that differ only
    /// in their bytes, and records lacking the second field; over SQLite and over the seam's
    /// in-memory storage.
    @Test(.sqliteOnly("compares with SQLite's query storage")) func walkingTheSecondSortsIndexGivesTheSamePagesAsReadingTheGroup() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Walk")
        var random = SeededGenerator(seed: 23)
        let words = ["apple", "applesauce", "applesaucy", "Apple", "café", "cafe\u{301}", "東京", "zebra", ""]
        let records = (0..<900).map { index -> Record in
            var record = Record(recordType: "Thing", recordID: RecordID(recordName: "w\(index)", zoneID: zone))
            record["k"] = .int64(Int64(random.below(3)))
            if random.below(8) != 0 { record["s"] = .string(words[random.below(words.count)]) }
            record["n"] = .int64(Int64(random.below(40)))
            record["t"] = .double([-0.0, 0.0, 1.5, -2.25, 1e9][random.below(5)])
            record["d"] = .timestamp(Date(timeIntervalSince1970: Double(random.below(50)) * 3_600))
            return record
        }
        _ = try temp.privateDB.modifyRecords(saving: Array(records[0..<400])).savedRecords()
        _ = try temp.privateDB.modifyRecords(saving: Array(records[400..<800])).savedRecords()
        _ = try temp.privateDB.modifyRecords(saving: Array(records[800...])).savedRecords()
        var walkedPages = 0, walkedFirstPages = 0
        try QueryStorages.read(temp, zone: zone, type: "Thing") { storages in
            let (type, zoneRowID, storage) = (storages.type, storages.zoneRowID, storages.sqlite)
            // The second implementation of the seam walks its own index the same way.
            let memory = storages.memory
            let sortings = [[QuerySort("k"), QuerySort("s")], [QuerySort("k", ascending: false), QuerySort("s", ascending: false)],
                            [QuerySort("k"), QuerySort("n", ascending: false)], [QuerySort("k", ascending: false), QuerySort("t")],
                            [QuerySort("k"), QuerySort("d", ascending: false)]]
            for format in ["TRUEPREDICATE", "n > 9", "n < 3"] {
                for sorts in sortings {
                    guard case .success(let compiled) = PredicateCompiler.compile(format: format, arguments: [], recordType: "Thing",
                                                                                 schema: type.schema, sorts: sorts, now: Date()) else {
                        Issue.record("\(format) does not compile")
                        continue
                    }
                    // A range on n drives with k's index beside it; the walk belongs to that
                    // index's plan, which a query streams from when the range matches many.
                    let planned = QueryPlanner(type: type).plan(compiled)
                    let plan = planned.streamingFromSortIndex ?? planned
                    var reading = QueryExecutor(storage: storage, zoneRowID: zoneRowID, type: type, query: compiled, plan: plan, limit: 7)
                    reading.walkableGroupSize = .max
                    var walking = reading
                    walking.walkableGroupSize = 1
                    var walkingInMemory = QueryExecutor(storage: memory, zoneRowID: zoneRowID, type: type, query: compiled, plan: plan, limit: 7)
                    walkingInMemory.walkableGroupSize = 1
                    var position: QueryCursor.Position?
                    var pages = 0
                    repeat {
                        switch position {
                        case .sorted(let values, let id)?:
                            if let group = values[0].flatMap(IndexKey.init)?.value,
                               try walking.walkSecondSort(groupKey: group, after: (values, id)) != nil { walkedPages += 1 }
                        case nil:
                            if let group = try walking.firstGroupKey(), try walking.walkSecondSort(groupKey: group, after: nil) != nil {
                                walkedFirstPages += 1
                            }
                        default:
                            break
                        }
                        let read = try reading.run(after: position)
                        let walked = try walking.run(after: position)
                        #expect(walked.records.map(\.stored.name) == read.records.map(\.stored.name), "\(format) sorted by \(sorts.map(\.key)), page \(pages)")
                        #expect(walked.next == read.next, "\(format) sorted by \(sorts.map(\.key)), page \(pages)")
                        let inMemory = try walkingInMemory.run(after: position)
                        #expect(inMemory.records.map(\.stored.name) == read.records.map(\.stored.name) && inMemory.next == read.next,
                                "in memory: \(format) sorted by \(sorts.map(\.key)), page \(pages)")
                        position = read.next
                        pages += 1
                    } while position != nil && pages < 200
                    #expect(position == nil, "\(format) sorted by \(sorts.map(\.key)) did not end")
                }
            }
        }
        // Most deep pages sit inside a group of about 300 and were walked; so do most first
        // pages (10 of the 15), which start at the beginning of the first group.
        #expect(walkedPages > 300)
        #expect(walkedFirstPages >= 8)
    }

    /// 3,000 things: `k` 0 or 1, `n` (a tenth lack it), `s` from five words, `u` unique, text
    /// "common" in most and "rare" in some.
    /// The answer worked out in memory: the filter on every record, then the sorts (records
    /// lacking a sort field after those having it), ties left in the records' order.
    static func inMemoryAnswer(_ records: [Record], filter: QueryFilter, sorts: [QuerySort]) -> [Record] {
        records.filter { filter.matches(DifferentialQueryTests.Adapter(record: $0)) }.sorted { a, b in
            for key in sorts {
                switch (a[key.key], b[key.key]) {
                case (nil, nil): continue
                case (nil, _): return false
                case (_, nil): return true
                case (let x?, let y?):
                    let order = SortOrder.compare(x, y)
                    if order != 0 { return key.ascending ? order < 0 : order > 0 }
                }
            }
            return false
        }
    }

    static func store() throws -> (TemporaryStore, ZoneID, [Record]) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Many")
        let db = temp.privateDB
        var random = SeededGenerator(seed: 11)
        let words = ["apple", "Banana", "café", "東京", "zebra"]
        let records = (0..<3_000).map { index -> Record in
            var record = Record(recordType: "Thing", recordID: RecordID(recordName: "t\(index)", zoneID: zone))
            record["k"] = .int64(Int64(random.below(10) == 0 ? 0 : 1))
            if random.below(10) != 0 { record["n"] = .int64(Int64(random.below(200)) - 100) }
            record["s"] = .string(words[random.below(words.count)])
            record["u"] = .int64(Int64((index * 7_919) % 3_000))
            record["text"] = .string(random.below(20) == 0 ? "rare words" : "common words \(index)")
            return record
        }
        try db.writeInBulk { writer in
            for start in stride(from: 0, to: records.count, by: 400) {
                _ = try writer.modifyRecords(saving: Array(records[start..<min(records.count, start + 400)])).savedRecords()
            }
        }
        let all = try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 5_000).changes.compactMap { change -> Record? in
            if case .changed(let record) = change { return record }
            return nil
        }
        #expect(all.count == 3_000)
        return (temp, zone, all)
    }

    /// A group's members ordered with ranks standing in for the second sort value come out
    /// exactly as ordered by comparing the values: strings sharing their first eight bytes,
    /// non-ASCII text, -0 and 0, integers beside doubles, timestamps, missing values, and
    /// kinds that mix (where ranks must step aside), in both directions.
    @Test func rankedGroupsSortExactlyAsTheirValuesDo() {
        var generator = SeededGenerator(seed: 7)
        let strings: [FieldValue] = ["", "a", "abcdefgh", "abcdefghb", "abcdefgha", "abcdefgh\u{0}", "Zebra", "zebra", "東京", "é", "e\u{301}", "👍🏽", "\u{FFFF}"].map { .string($0) }
        let numbers: [FieldValue] = [.double(-0.0), .double(0), .int64(0), .int64(-3), .double(-2.5), .double(1e300), .int64(.max), .int64(.min), .double(-.infinity)]
        let dates: [FieldValue] = [0, 1, -86_400_000, 1_700_000_000_000].map { .timestamp(Date(timeIntervalSince1970: Double($0) / 1000)) }
        let references: [FieldValue] = ["b", "a", "abcdefghij", "abcdefghi"].map { .reference(Reference(recordName: $0)) }
        for pool in [strings, numbers, dates, references, strings + numbers, numbers + [.double(.nan)]] {
            for ascending in [true, false] {
                let members: [QueryExecutor.Member] = (0..<300).map { id in
                    let second: FieldValue? = Int.random(in: 0..<10, using: &generator) == 0 ? nil : pool.randomElement(using: &generator)
                    let third: FieldValue? = .int64(Int64.random(in: 0..<3, using: &generator))
                    return ([.double(4), second, third], Int64(id))
                }
                func precedes(_ a: QueryExecutor.Member, _ b: QueryExecutor.Member) -> Bool {
                    for index in 1..<3 {
                        switch (a.values[index], b.values[index]) {
                        case (nil, nil): continue
                        case (nil, _): return false
                        case (_, nil): return true
                        case (let x?, let y?):
                            let order = SortOrder.compare(x, y)
                            if order != 0 { return (index == 1 && !ascending) ? order > 0 : order < 0 }
                        }
                    }
                    return a.id < b.id
                }
                let ranked = SortRank.order(of: members, rankingSortAt: 1, ascending: ascending, precedes: precedes)
                let plain = members.indices.sorted { precedes(members[$0], members[$1]) }
                #expect(ranked == plain, "pool of \(pool.count) values, ascending \(ascending)")
            }
        }
        // Members that do not share the first sort value are never ranked on the second.
        let split: [QueryExecutor.Member] = [([.int64(2), .string("a")], 0), ([.int64(1), .string("b")], 1)]
        let byFirst = SortRank.order(of: split, rankingSortAt: 1, ascending: true) { a, b in
            SortOrder.compare(a.values[0], b.values[0]) < 0
        }
        #expect(byFirst == [1, 0])
    }
}

