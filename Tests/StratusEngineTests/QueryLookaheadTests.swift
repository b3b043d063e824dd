import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// A sorted page's cursor carries the matches that follow it (`QueryLookahead`), so the next
/// page loads them by id instead of reading and sorting their group again. The answer must be
/// exactly the one read without them; a write since the cursor was made, and ids a cursor was
/// forged to list, must not change it.
@Suite(.onEveryBackend) struct QueryLookaheadTests {
    /// Every page through lookahead cursors gives exactly the whole answer in order: groups read
    /// from the first sort's index (their rest carried whole, or capped), and matches loaded and
    /// sorted in memory.
    @Test func pagesThroughLookaheadsGiveTheWholeAnswer() throws {
        let (temp, zone, all) = try SortIndexStreamingTests.store()
        let db = temp.privateDB
        var carried = (wholeGroup: 0, capped: 0, none: 0)
        // `k == 1` keeps 90%: streamed from the sort index in groups of ~540 equal `s`.
        // `n > 50` keeps ~22%: its matches are loaded and sorted in memory.
        let cases: [(format: String, sorts: [QuerySort], limit: Int)] = [
            ("k == 1", [QuerySort("s"), QuerySort("u")], 20),
            ("k == 1", [QuerySort("s", ascending: false), QuerySort("u", ascending: false)], 150),
            ("self CONTAINS 'common' AND n > 0", [QuerySort("s"), QuerySort("u", ascending: false)], 45),
            ("TRUEPREDICATE", [QuerySort("n"), QuerySort("u")], 25),
            ("n > 50", [QuerySort("s"), QuerySort("u")], 30),
            ("n > 50", [QuerySort("u", ascending: false)], 70),
        ]
        for item in cases {
            let query = Query(recordType: "Thing", predicateFormat: item.format, sortDescriptors: item.sorts)
            let expected = try Self.expected(all, query, temp.store)
            var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: item.limit)
            var got = page.records
            while let cursor = page.cursor {
                switch try QueryCursor.decode(cursor, storeID: temp.store.storeID).position {
                case .sortedLookahead(_, _, let lookahead): lookahead.endsGroup ? (carried.wholeGroup += 1) : (carried.capped += 1)
                default: carried.none += 1
                }
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: item.limit)
                got += page.records
            }
            #expect(got.map(\.recordName) == expected.map(\.recordName), "\(item.format) sorted by \(item.sorts.map(\.key)), \(item.limit) a page")
        }
        // Every kind of cursor was exercised, most of them carrying ids.
        #expect(carried.wholeGroup > 10 && carried.capped > 10, "\(carried)")
        #expect(carried.none < carried.wholeGroup + carried.capped, "\(carried)")
    }

    /// A write in the zone after the cursor was made (a listed record moved within its group, a
    /// new record in the group, one deleted): the next pages read the store as it is now.
    @Test func aWriteSinceTheCursorReadsTheStoreAsItIsNow() throws {
        let (temp, zone, all) = try SortIndexStreamingTests.store()
        let db = temp.privateDB
        let query = Query(recordType: "Thing", predicateFormat: "k == 1", sortDescriptors: [QuerySort("s"), QuerySort("u")])
        let first = try db.records(matching: query, inZoneWith: zone, resultsLimit: 40)
        let cursor = try #require(first.cursor)
        guard case .sortedLookahead(_, _, let lookahead) = try QueryCursor.decode(cursor, storeID: temp.store.storeID).position else {
            Issue.record("the first page's cursor carries no lookahead")
            return
        }
        let listed = try lookahead.ids.prefix(3).map { id in try #require(try Self.name(ofRow: id, in: temp.store)) }
        var moved = try #require(all.first { $0.recordName == listed[1] })
        moved["u"] = .int64(100_000)
        var added = StratusCloud.Record(recordType: "Thing", recordID: RecordID(recordName: "added", zoneID: zone))
        added["k"] = .int64(1)
        added["s"] = moved["s"]
        added["u"] = .int64(-1)
        added["text"] = .string("common words")
        var late = added
        late.recordID = RecordID(recordName: "late", zoneID: zone)
        late["u"] = .int64(50_000)
        _ = try db.modifyRecords(saving: [moved, added, late], deleting: [RecordID(recordName: listed[2], zoneID: zone)],
                                 savePolicy: .allKeys).savedRecords()

        var page = try db.records(continuingMatchFrom: cursor, resultsLimit: 40)
        var rest = page.records
        while let next = page.cursor {
            page = try db.records(continuingMatchFrom: next, resultsLimit: 40)
            rest += page.records
        }
        let now = try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 5_000).changes.compactMap { change -> StratusCloud.Record? in
            if case .changed(let record) = change { return record }
            return nil
        }
        let expected = try Self.expected(now, query, temp.store)
        let start = try #require(expected.firstIndex { $0.recordName == first.records.last?.recordName })
        #expect(rest.map(\.recordName) == expected[(start + 1)...].map(\.recordName))
        #expect(!rest.contains { $0.recordName == listed[2] } && rest.contains { $0.recordName == "late" })
    }

    /// A cursor forged to list records of another zone, of another type, or failing the filter
    /// yields none of them: every listed record is checked as any candidate is.
    @Test func idsACursorWasForgedToListAreCheckedLikeAnyCandidate() throws {
        let (temp, zone, all) = try SortIndexStreamingTests.store()
        let db = temp.privateDB
        let other = try temp.zone("Other")
        var stranger = StratusCloud.Record(recordType: "Thing", recordID: RecordID(recordName: "stranger", zoneID: other))
        stranger["k"] = .int64(1)
        stranger["s"] = .string("apple")
        var gadget = StratusCloud.Record(recordType: "Gadget", recordID: RecordID(recordName: "gadget", zoneID: zone))
        gadget["k"] = .int64(1)
        _ = try db.modifyRecords(saving: [stranger, gadget]).savedRecords()
        // Each query fails one of them: `k == 1` is checked on every record streamed from the
        // sort index; `n > 50` drives from its own index, which answers it for the ids it yields.
        let cases: [(format: String, failing: StratusCloud.Record)] = [
            ("k == 1", try #require(all.first { $0["k"] == .int64(0) })),
            ("n > 50", try #require(all.first { $0["n"] == .int64(-7) })),
        ]
        for item in cases {
            let query = Query(recordType: "Thing", predicateFormat: item.format, sortDescriptors: [QuerySort("s"), QuerySort("u")])
            let first = try db.records(matching: query, inZoneWith: zone, resultsLimit: 30)
            let decoded = try QueryCursor.decode(try #require(first.cursor), storeID: temp.store.storeID)
            guard case .sortedLookahead(let values, let id, var lookahead) = decoded.position else {
                Issue.record("\(item.format): the first page's cursor carries no lookahead")
                continue
            }
            let genuine = try db.records(continuingMatchFrom: try #require(first.cursor), resultsLimit: 30)
            let foreign = try ["stranger", "gadget", item.failing.recordName].map { name in try #require(try Self.rowID(named: name, in: temp.store)) }
            lookahead.ids = Array((foreign + lookahead.ids.prefix(1) + foreign + lookahead.ids.dropFirst()).prefix(QueryLookahead.capacity))
            var forged = decoded
            forged.position = .sortedLookahead(values: values, id: id, lookahead: lookahead)
            let page = try db.records(continuingMatchFrom: forged.encoded(storeID: temp.store.storeID), resultsLimit: 30)
            #expect(page.records.map(\.recordName) == genuine.records.map(\.recordName), "\(item.format)")
        }
    }

    /// What changes a query's matches without a write to the zone's records must not leave a
    /// lookahead standing: a role granted, a share accepted, a schema that makes another field
    /// searchable, and a cursor continued by another user (whose own zone has the same change
    /// sequence). Each time the pages after the cursor are exactly those of its plain keyset
    /// position.
    @Test func whatChangesTheAnswerWithoutAWriteReadsThePlainPosition() throws {
        // A role: the public database, where Alice reads only her memos until granted Reader.
        do {
            let temp = try TemporaryStore()
            _ = try temp.store.importSchema(text: #"""
                DEFINE SCHEMA
                    CREATE ROLE Reader;
                    RECORD TYPE Memo (cat INT64 QUERYABLE, title STRING QUERYABLE SORTABLE, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "Reader");
                """#)
            let alice = try temp.store.createUser(alias: "alice"), bob = try temp.store.createUser(alias: "bob")
            let aliceDB = temp.store.database(.public, caller: .user(alice.recordName)), bobDB = temp.store.database(.public, caller: .user(bob.recordName))
            for index in 0..<20 {
                try (index % 2 == 0 ? aliceDB : bobDB).save(StratusCloud.Record(recordType: "Memo", recordID: RecordID(recordName: "m\(index)"),
                                                                               fields: ["cat": .int64(1), "title": .string(String(format: "t%02d", index))]))
            }
            let first = try aliceDB.records(matching: Query(recordType: "Memo", predicateFormat: "cat == 1", sortDescriptors: [QuerySort("title")]), resultsLimit: 2)
            try Self.expectPlainAnswer(after: first, of: aliceDB, in: temp.store, "a role granted") { try temp.store.grant(role: "Reader", to: "alice") }
        }
        // A share: Bob reads one root's records of Alice's zone until he accepts a share of the other.
        do {
            let temp = try TemporaryStore()
            let alice = try temp.store.createUser(alias: "alice"), bob = try temp.store.createUser(alias: "bob")
            let trips = ZoneID(zoneName: "Trips")
            let mine = temp.store.database(.private, user: alice.recordName)
            try mine.modifyRecordZones(saving: [trips])
            var records = ["rootA", "rootB"].map { StratusCloud.Record(recordType: "Trip", recordID: RecordID(recordName: $0, zoneID: trips), fields: ["cat": .int64(0)]) }
            for index in 0..<20 {
                var record = StratusCloud.Record(recordType: "Trip", recordID: RecordID(recordName: "c\(index)", zoneID: trips),
                                                  fields: ["cat": .int64(1), "title": .string(String(format: "t%02d", index))])
                record.parent = Reference(recordName: index % 2 == 0 ? "rootA" : "rootB")
                records.append(record)
            }
            _ = try mine.modifyRecords(saving: records)
            let shareA = try mine.createShare(rootRecord: "rootA", inZoneWith: trips)
            try mine.addParticipant(bob.recordName, permission: .readOnly, toShare: shareA.url)
            let shareB = try mine.createShare(rootRecord: "rootB", inZoneWith: trips, publicPermission: .readOnly)
            let bobDB = temp.store.database(.shared, user: bob.recordName)
            try bobDB.acceptShare(shareA.url)
            let query = Query(recordType: "Trip", predicateFormat: "cat == 1", sortDescriptors: [QuerySort("title")])
            let first = try bobDB.records(matching: query, inZoneWith: ZoneID(zoneName: "Trips", ownerName: alice.recordName), resultsLimit: 2)
            try Self.expectPlainAnswer(after: first, of: bobDB, in: temp.store, "a share accepted") { try bobDB.acceptShare(shareB.url) }
        }
        // A schema: `b` becomes SEARCHABLE, so a token search finds records through it too.
        do {
            let temp = try TemporaryStore()
            let schema = #"""
                DEFINE SCHEMA
                    RECORD TYPE Doc (a STRING QUERYABLE SEARCHABLE, b STRING QUERYABLE%@, title STRING QUERYABLE SORTABLE, GRANT READ, CREATE, WRITE TO "_creator", GRANT READ TO "_world");
                """#
            _ = try temp.store.importSchema(text: schema.replacingOccurrences(of: "%@", with: ""))
            let zone = try temp.zone("D")
            let records = (0..<20).map { index in
                StratusCloud.Record(recordType: "Doc", recordID: RecordID(recordName: "d\(index)", zoneID: zone),
                                     fields: ["title": .string(String(format: "t%02d", index)), "a": .string(index % 2 == 0 ? "a word" : "none"),
                                              "b": .string(index % 2 == 0 ? "none" : "a word")])
            }
            _ = try temp.privateDB.modifyRecords(saving: records)
            let query = Query(recordType: "Doc", predicateFormat: "self CONTAINS 'word'", sortDescriptors: [QuerySort("title")])
            let first = try temp.privateDB.records(matching: query, inZoneWith: zone, resultsLimit: 2)
            try Self.expectPlainAnswer(after: first, of: temp.privateDB, in: temp.store, "a field made searchable") {
                _ = try temp.store.importSchema(text: schema.replacingOccurrences(of: "%@", with: " SEARCHABLE"))
            }
        }
        // Another user: Bob continues Alice's cursor in his own default zone.
        do {
            let temp = try TemporaryStore()
            let alice = try temp.store.createUser(alias: "alice"), bob = try temp.store.createUser(alias: "bob")
            let aliceDB = temp.store.database(.private, user: alice.recordName), bobDB = temp.store.database(.private, user: bob.recordName)
            for (db, prefix) in [(aliceDB, "a"), (bobDB, "b")] {
                _ = try db.modifyRecords(saving: (0..<10).map { index in
                    StratusCloud.Record(recordType: "Thing", recordID: RecordID(recordName: "\(prefix)\(index)"),
                                         fields: ["s": .string(index < 8 ? "g" : "h"), "u": .int64(Int64(index))])
                })
            }
            let query = Query(recordType: "Thing", predicateFormat: "TRUEPREDICATE", sortDescriptors: [QuerySort("s"), QuerySort("u")])
            let first = try aliceDB.records(matching: query, resultsLimit: 2)
            try Self.expectPlainAnswer(after: first, of: bobDB, in: temp.store, "another user's zone") {}
        }
    }

    /// Pages from `first`'s cursor after `change`, read through `db`, equal those from its plain
    /// keyset position.
    private static func expectPlainAnswer(after first: QueryResultsPage, of db: CloudDatabase, in store: Store, _ label: String,
                                          _ change: () throws -> Void) throws {
        let cursor = try #require(first.cursor)
        var plain = try QueryCursor.decode(cursor, storeID: store.storeID)
        if case .sortedLookahead(let values, let id, _) = plain.position { plain.position = .sorted(values: values, id: id) }
        try change()
        func rest(_ cursor: String) throws -> [String] {
            var page = try db.records(continuingMatchFrom: cursor, resultsLimit: 2)
            var names = page.records.map(\.recordName)
            while let next = page.cursor {
                page = try db.records(continuingMatchFrom: next, resultsLimit: 2)
                names += page.records.map(\.recordName)
            }
            return names
        }
        let expected = try rest(plain.encoded(storeID: store.storeID))
        #expect(try rest(cursor) == expected, "\(label)")
        #expect(expected.count > 6, "\(label): records follow the cursor")
    }

    /// The cursor's bytes: a lookahead round-trips, and one listing no ids or more than the
    /// capacity is refused as damaged.
    @Test func lookaheadCursorsRoundTripAndRefuseImpossibleCounts() throws {
        let storeID = UUID()
        func cursor(_ ids: [Int64]) -> QueryCursor {
            QueryCursor(scope: .private, zoneID: ZoneID(zoneName: "Z"), query: Query(recordType: "T", predicateFormat: "TRUEPREDICATE"),
                        now: Date(timeIntervalSince1970: 1_700_000_000), position: .sortedLookahead(
                            values: [.string("東京"), nil], id: 42, lookahead: QueryLookahead(stamp: LookaheadStamp(zoneRowID: 3, incarnation: 2, changeSequence: 9_001, schemaVersion: 7),
                                                                                             ids: ids, endsGroup: true)))
        }
        let made = cursor([7, -3, 1 << 40, 12])
        #expect(try QueryCursor.decode(made.encoded(storeID: storeID), storeID: storeID) == made)
        for ids in [[], Array(repeating: Int64(1), count: QueryLookahead.capacity + 1)] {
            #expect(throws: CloudKitError.self) { try QueryCursor.decode(cursor(ids).encoded(storeID: storeID), storeID: storeID) }
        }
        let stamp = LookaheadStamp(zoneRowID: 1, incarnation: 1, changeSequence: 1, schemaVersion: 1)
        #expect(QueryLookahead.following([Int64](), stamp: stamp, endingGroup: true) == nil)
        let capped = try #require(QueryLookahead.following(Array(0..<Int64(QueryLookahead.capacity + 1)), stamp: stamp, endingGroup: true))
        #expect(capped.ids.count == QueryLookahead.capacity && !capped.endsGroup)
    }

    /// The query's answer worked out in memory.
    static func expected(_ records: [StratusCloud.Record], _ query: Query, _ store: Store) throws -> [StratusCloud.Record] {
        let schema = try #require(try store.recordTypes().first { $0.name == query.recordType })
        guard case .success(let compiled) = PredicateCompiler.compile(format: query.predicateFormat, arguments: [], recordType: query.recordType,
                                                                     schema: schema, sorts: query.sortDescriptors, now: Date()) else {
            throw CloudKitError(.invalidArguments, "\(query.predicateFormat) does not compile")
        }
        return SortIndexStreamingTests.inMemoryAnswer(records, filter: compiled.filter, sorts: query.sortDescriptors)
    }

    static func name(ofRow id: Int64, in store: Store) throws -> String? {
        try store.read { db in try db.records.find(id: id)?.name }
    }

    static func rowID(named name: String, in store: Store) throws -> Int64? {
        try store.read { db in
            for typeID in try store.catalog(db).typeNames.keys.sorted() {
                for id in try db.records.ids(ofType: typeID) where try db.records.find(id: id)?.name == name { return id }
            }
            return nil
        }
    }
}
