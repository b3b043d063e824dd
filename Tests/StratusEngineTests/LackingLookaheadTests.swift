import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// When few records lack a query's sort field, one pass over the indexes finds them all; a page
/// among them then carries those that follow (`lackingLookahead`), so the next pages load them
/// by id instead of counting and passing over the indexes again. The answer must be exactly the
/// one read from plain positions, whatever was written since and whatever a cursor was forged
/// to list.
@Suite(.onEveryBackend) struct LackingLookaheadTests {
    /// 3,600 items; one in 25 lacks `r` (144, under a tenth, so one pass finds them), and two
    /// in three have `k == 1` (2,400: enough that a page streams from `r`'s index).
    static func store() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Items")
        let records = (0..<3_600).map { index -> StratusCloud.Record in
            var record = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "i\(index)", zoneID: zone))
            record["k"] = .int64(index % 3 == 0 ? 0 : 1)
            if index % 25 != 0 { record["r"] = .int64(Int64(index * 37 % 1_000)) }
            return record
        }
        for start in stride(from: 0, to: records.count, by: 400) {
            _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<start + 400])).savedRecords()
        }
        return (temp, zone)
    }

    static let query = Query(recordType: "Item", predicateFormat: "k == 1", sortDescriptors: [QuerySort("r")])

    /// ``query`` compiled and planned over `storages`' type.
    static func compiled(_ storages: QueryStorages) throws -> (CompiledQuery, QueryPlan) {
        guard case .success(let compiled) = PredicateCompiler.compile(format: query.predicateFormat, arguments: [], recordType: "Item",
                                                                     schema: storages.type.schema, sorts: query.sortDescriptors, now: Date()) else {
            throw CloudKitError(.invalidArguments, "\(query.predicateFormat) does not compile")
        }
        return (compiled, QueryPlanner(type: storages.type).plan(compiled))
    }

    /// Over the query seam, counting what each page asks of SQLite: with a stamp to list under,
    /// the records lacking `r` are counted and searched for once, not once a page, and the pages
    /// are exactly those read from plain positions.
    @Test(.sqliteOnly("compares with SQLite's query storage")) func pagesAmongRecordsLackingTheSortFieldSearchForThemOnce() throws {
        let (temp, zone) = try Self.store()
        try QueryStorages.read(temp, zone: zone, type: "Item") { storages in
            let (compiled, plan) = try Self.compiled(storages)
            /// `candidateShare`: the type's records for each of the 2,400 that `k == 1` yields
            /// at which those are loaded to find the ones lacking `r` (1: they are; 2: they are
            /// not, 3,600 being fewer than 4,800).
            func pages(listing: Bool, candidateShare: Int? = nil) throws
                -> (pages: [[String]], searches: (passes: Int, counts: Int), lookaheads: Int, tail: [String]) {
                let storage = CountingQueryStorage(storages.sqlite)
                var executor = QueryExecutor(storage: storage, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled, plan: plan, limit: 10)
                if listing { executor.lookaheadStamp = LookaheadStamp(zoneRowID: storages.zoneRowID, incarnation: 1, changeSequence: 1, schemaVersion: 1) }
                if let candidateShare { executor.candidateShare = candidateShare }
                var pages: [[String]] = []
                var position: QueryCursor.Position?
                var lookaheads = 0
                repeat {
                    let (page, next) = try executor.run(after: position)
                    pages.append(page.map(\.stored.name))
                    if case .lackingLookahead? = next { lookaheads += 1 }
                    position = next
                } while position != nil && pages.count < 1_000
                let searches = (storage.lackingPasses, storage.lackingCounts)
                // Read from its end too: the records lacking `r` come first, newest first.
                executor.limit = 90
                return (pages, searches, lookaheads, try executor.runTail().map(\.stored.name))
            }
            let plain = try pages(listing: false)
            let listed = try pages(listing: true)
            #expect(listed.pages == plain.pages)
            #expect(plain.tail == Array(plain.pages.flatMap { $0 }.suffix(90)))
            // Loading the candidates gives the same pages without counting or any pass, listed
            // or not, and the same end.
            for listing in [false, true] {
                let loaded = try pages(listing: listing, candidateShare: 1)
                #expect(loaded.pages == plain.pages && loaded.tail == plain.tail, "listing: \(listing)")
                #expect(loaded.searches.passes == 0 && loaded.searches.counts == 0, "listing: \(listing)")
                #expect(listing ? loaded.lookaheads >= 9 : loaded.lookaheads == 0)
            }
            let passing = try pages(listing: true, candidateShare: 2)
            #expect(passing.pages == plain.pages && passing.searches.passes == 1)
            // A caller who sees only some records gets no list (it would be what they saw), and
            // a list made for one who sees all is read through their view.
            var limited = QueryExecutor(storage: storages.sqlite, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled, plan: plan, limit: 10)
            limited.lookaheadStamp = LookaheadStamp(zoneRowID: storages.zoneRowID, incarnation: 1, changeSequence: 1, schemaVersion: 1)
            limited.visible = { $0.name != "i50" }
            var position: QueryCursor.Position?
            var seen: [String] = []
            repeat {
                let (page, next) = try limited.run(after: position)
                seen += page.map(\.stored.name)
                if case .lackingLookahead? = next { Issue.record("a list made for a caller who sees only some records") }
                position = next
            } while position != nil && seen.count < 5_000
            #expect(seen == plain.pages.flatMap { $0 }.filter { $0 != "i50" })
            var full = limited
            full.visible = nil
            let first = try full.run(after: nil)
            var carried = first.next
            while let next = carried, case .streaming = next { carried = try full.run(after: next).next }
            guard case .lackingLookahead? = carried else {
                Issue.record("no list among the records lacking r")
                return
            }
            var rest: [String] = []
            position = carried
            while let next = position {
                let (page, following) = try limited.run(after: next)
                rest += page.map(\.stored.name)
                position = following
            }
            #expect(!rest.isEmpty && !rest.contains("i50") && Array(seen.suffix(rest.count)) == rest)
            // 96 matches lack `r`: the last of 250 names, in the order they were saved.
            let names = plain.pages.flatMap { $0 }
            let lacking = (0..<3_600).filter { $0 % 25 == 0 && $0 % 3 != 0 }.map { "i\($0)" }
            #expect(names.count == 2_400 && Array(names.suffix(lacking.count)) == lacking)
            #expect(plain.lookaheads == 0)
            #expect(plain.searches.passes >= 9 && plain.searches.counts >= 9, "one search a page among them")
            #expect(listed.searches.passes == 1 && listed.searches.counts == 1)
            #expect(listed.lookaheads >= 9)
        }
    }

    /// A list that runs out before the records lacking `r` do (cut here to three ids): the
    /// pages past it are those of the plain position, and the pass that finds them needs no
    /// count first, the list having been made under the same stamp.
    @Test(.sqliteOnly("compares with SQLite's query storage")) func aListThatRunsOutIsFollowedByAPassWithoutACount() throws {
        let (temp, zone) = try Self.store()
        try QueryStorages.read(temp, zone: zone, type: "Item") { storages in
            let (compiled, plan) = try Self.compiled(storages)
            let storage = CountingQueryStorage(storages.sqlite)
            var executor = QueryExecutor(storage: storage, zoneRowID: storages.zoneRowID, type: storages.type, query: compiled, plan: plan, limit: 10)
            func rest(after position: QueryCursor.Position) throws -> [String] {
                var names: [String] = []
                var next: QueryCursor.Position? = position
                while let at = next {
                    let (page, following) = try executor.run(after: at)
                    names += page.map(\.stored.name)
                    next = following
                }
                return names
            }
            executor.lookaheadStamp = LookaheadStamp(zoneRowID: storages.zoneRowID, incarnation: 1, changeSequence: 1, schemaVersion: 1)
            var reached = try executor.run(after: nil).next
            while let next = reached, case .streaming = next { reached = try executor.run(after: next).next }
            guard case .lackingLookahead(let modifiedAt, let id, let list, _)? = reached else {
                Issue.record("no list among the records lacking r")
                return
            }
            let third = try #require(try storages.sqlite.record(id: list.ids[2]))
            let short = QueryLookahead(stamp: list.stamp, ids: Array(list.ids.prefix(3)), endsGroup: false)
            let (counted, passed) = (storage.lackingCounts, storage.lackingPasses)
            let continued = try rest(after: .lackingLookahead(modifiedAt: modifiedAt, id: id, lookahead: short, listedThrough: third.modifiedAt))
            #expect(storage.lackingCounts == counted && storage.lackingPasses == passed + 1)
            executor.lookaheadStamp = nil
            let plain = try rest(after: .lackingSortField(modifiedAt: modifiedAt, id: id))
            #expect(continued.count > 3 && continued == plain)
        }
    }

    /// Tag 5 of a cursor: a position among the records lacking the sort field with the ids
    /// that follow; a list of none, or of more than a cursor carries, is refused as damaged.
    @Test func lackingLookaheadCursorsRoundTripAndRefuseImpossibleCounts() throws {
        let storeID = UUID()
        func cursor(_ ids: [Int64]) -> QueryCursor {
            let lookahead = QueryLookahead(stamp: LookaheadStamp(zoneRowID: 3, incarnation: 2, changeSequence: 9_001, schemaVersion: 7), ids: ids, endsGroup: false)
            return QueryCursor(scope: .private, zoneID: ZoneID(zoneName: "Z"), query: Self.query, now: Date(timeIntervalSince1970: 1_700_000_000),
                               position: .lackingLookahead(modifiedAt: 1_700_000_000_123, id: 42, lookahead: lookahead, listedThrough: 1_700_000_000_456))
        }
        let made = cursor([7, -3, 1 << 40, 12])
        #expect(try QueryCursor.decode(made.encoded(storeID: storeID), storeID: storeID) == made)
        for ids in [[], Array(repeating: Int64(1), count: QueryLookahead.capacity + 1)] {
            #expect(throws: CloudKitError.self) { try QueryCursor.decode(cursor(ids).encoded(storeID: storeID), storeID: storeID) }
        }
    }

    /// The first cursor among the records lacking `r`, and the rest of the answer read from it.
    private static func firstLackingCursor(_ db: CloudDatabase, _ zone: ZoneID, _ store: Store) throws -> (cursor: String, decoded: QueryCursor) {
        var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 50)
        while let cursor = page.cursor {
            let decoded = try QueryCursor.decode(cursor, storeID: store.storeID)
            if case .lackingLookahead = decoded.position { return (cursor, decoded) }
            page = try db.records(continuingMatchFrom: cursor, resultsLimit: 50)
        }
        throw CloudKitError(.internalError, "no page among the records lacking r carried a lookahead")
    }

    private static func rest(from cursor: String, _ db: CloudDatabase, limit: Int = 7) throws -> [String] {
        var page = try db.records(continuingMatchFrom: cursor, resultsLimit: limit)
        var names = page.records.map(\.recordName)
        while let next = page.cursor {
            page = try db.records(continuingMatchFrom: next, resultsLimit: limit)
            names += page.records.map(\.recordName)
        }
        return names
    }

    /// The same cursor with its plain keyset position.
    private static func plain(_ decoded: QueryCursor, _ store: Store) -> String {
        var plain = decoded
        if case .lackingLookahead(let modifiedAt, let id, _, _) = decoded.position { plain.position = .lackingSortField(modifiedAt: modifiedAt, id: id) }
        return plain.encoded(storeID: store.storeID)
    }

    /// After a write in the zone (a listed record given `r`, one deleted, a new one lacking
    /// `r`), the pages after a cursor are those of its plain position, read as the store is now;
    /// and a cursor whose list stops short of the rest goes on past it by the one pass.
    @Test func aWriteSinceOrAShortListReadsTheStoreAsItIsNow() throws {
        let (temp, zone) = try Self.store()
        let db = temp.privateDB
        let (cursor, decoded) = try Self.firstLackingCursor(db, zone, temp.store)
        guard case .lackingLookahead(let modifiedAt, let id, let lookahead, _) = decoded.position else { return }
        #expect(lookahead.endsGroup)
        let before = try Self.rest(from: cursor, db)
        #expect(before == (try Self.rest(from: Self.plain(decoded, temp.store), db)))

        // A list cut after its third id, the rest left to the pass.
        let third = try #require(try QueryLookaheadTests.name(ofRow: lookahead.ids[2], in: temp.store))
        let thirdModified = try #require(try db.record(for: RecordID(recordName: third, zoneID: zone)).modificationDate)
        var short = decoded
        short.position = .lackingLookahead(modifiedAt: modifiedAt, id: id,
                                           lookahead: QueryLookahead(stamp: lookahead.stamp, ids: Array(lookahead.ids.prefix(3)), endsGroup: false),
                                           listedThrough: FieldValue.milliseconds(thirdModified))
        #expect(try Self.rest(from: short.encoded(storeID: temp.store.storeID), db) == Self.rest(from: Self.plain(decoded, temp.store), db))

        let listed = Array(before.prefix(4))
        var given = try db.record(for: RecordID(recordName: listed[1], zoneID: zone))
        given["r"] = .int64(5)
        var late = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "late", zoneID: zone))
        late["k"] = .int64(1)
        _ = try db.modifyRecords(saving: [given, late], deleting: [RecordID(recordName: listed[3], zoneID: zone)], savePolicy: .allKeys).savedRecords()
        let after = try Self.rest(from: cursor, db)
        #expect(after == (try Self.rest(from: Self.plain(decoded, temp.store), db)))
        #expect(after.last == "late" && !after.contains(listed[1]) && !after.contains(listed[3]) && after.contains(listed[2]))
    }

    /// A cursor forged to list a record that has `r`, one failing the filter and one of another
    /// zone yields none of them: each listed record is checked as any candidate is.
    @Test func idsACursorWasForgedToListAreCheckedLikeAnyCandidate() throws {
        let (temp, zone) = try Self.store()
        let db = temp.privateDB
        var stranger = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "stranger", zoneID: try temp.zone("Other")))
        stranger["k"] = .int64(1)
        _ = try db.modifyRecords(saving: [stranger]).savedRecords()
        let (cursor, decoded) = try Self.firstLackingCursor(db, zone, temp.store)
        guard case .lackingLookahead(let modifiedAt, let id, var lookahead, let listedThrough) = decoded.position else { return }
        // i1 has `r`; i3 has `k == 0` and lacks nothing the filter needs; "stranger" is elsewhere.
        let foreign = try ["i1", "i3", "stranger"].map { try #require(try QueryLookaheadTests.rowID(named: $0, in: temp.store)) }
        lookahead.ids = Array((foreign + lookahead.ids.prefix(1) + foreign + lookahead.ids.dropFirst()).prefix(QueryLookahead.capacity))
        var forged = decoded
        forged.position = .lackingLookahead(modifiedAt: modifiedAt, id: id, lookahead: lookahead, listedThrough: listedThrough)
        let genuine = try Self.rest(from: cursor, db)
        #expect(try Self.rest(from: forged.encoded(storeID: temp.store.storeID), db) == genuine)
        #expect(!genuine.isEmpty && !genuine.contains("i1") && !genuine.contains("i3") && !genuine.contains("stranger"))
    }
}
