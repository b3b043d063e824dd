import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing
import class GRDB.Row

/// An import inserts its record rows 256 to a statement; a store must end as if each record had
/// been written alone, whatever a chunk holds: names met twice, names the store holds already,
/// and outside the private database, a second write a role refuses.
@Suite struct ImportChunkTests {
    private static let written = Date(timeIntervalSince1970: 1_700_000_000)

    /// 700 records in two zones: most new, every seventh naming one a few places before it (in
    /// the same chunk of 256 or across two), and every thirteenth one the store held before the
    /// import.
    private func records(zone: ZoneID) -> [Record] {
        var generator = SeededGenerator(seed: 11)
        return (0..<700).map { index in
            let name: String
            if index % 13 == 5 {
                name = "stored-\(index % 20)"
            } else if index % 7 == 3, index > 40 {
                name = "r\(index - 1 - generator.below(30))"
            } else {
                name = "r\(index)"
            }
            // A third in a second zone: the same fields' rows there are held apart.
            let inZone = index % 3 == 1 && !name.hasPrefix("stored") ? ZoneID(zoneName: "Other") : zone
            var record = Record(recordType: "Item", recordID: RecordID(recordName: name, zoneID: inZone), fields: [
                "count": .int64(Int64(generator.below(50))),
                "label": .string("label \(generator.below(90)) \(index)"),
                "tags": .list(.string, (0..<generator.below(3)).map { .string("t\($0 + generator.below(4))") }),
            ])
            // Each record of the main zone not named as a stored one points at a stored record
            // (a DELETE_SELF edge), and each has a place and a rating: every kind of index row,
            // made ahead or not. The same fields for every version of a name, as saving merges
            // fields where an import replaces them.
            if inZone == zone, !name.hasPrefix("stored") {
                record["owner"] = .reference(Reference(recordName: "stored-\(index % 20)", action: .deleteSelf))
            }
            record["place"] = .location(Location(latitude: Double(index % 80), longitude: Double(index % 170)))
            record["rating"] = .double(Double(index % 9) / 2)
            record.recordChangeTag = "tag\(index)"
            record.creationDate = Self.written
            record.modificationDate = Self.written.addingTimeInterval(Double(index))
            return record
        }
    }

    /// A store holding the records `stored-0` ... `stored-19`, as both stores begin.
    private func storeWithEarlierRecords() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let earlier = (0..<20).map { Record(recordType: "Item", recordID: RecordID(recordName: "stored-\($0)", zoneID: zone),
                                            fields: ["count": .int64(-1), "label": .string("before \($0)")]) }
        _ = try temp.privateDB.modifyRecords(saving: earlier)
        return (temp, zone)
    }

    /// Each record's row in the zone as the change feed and an export see it, in change order,
    /// with the store's index rows.
    private func contents(_ temp: TemporaryStore) throws -> [String] {
        let rows = try temp.store.read { db in
            try Row.fetchAll(db.sqlite, sql: """
                SELECT r.name, r.seq, r.change_tag, r.modified_at, hex(r.fields) FROM record r JOIN zone z ON z.id = r.zone_id
                WHERE z.name IN ('Bulk', 'Other') ORDER BY z.name, r.seq
                """).map { row in
                "\(row[0] as String) seq \(row[1] as Int64) \(row[2] as String) \(row[3] as Int64) \(row[4] as String)"
            }
        }
        return rows + (try IndexUpdateDifferentialTests.indexRows(temp.store))
    }

    @Test(arguments: [false, true])
    func aBatchOfRepeatedAndStoredNamesEndsAsIfWrittenOneByOne(prepares: Bool) throws {
        let (alone, zone) = try storeWithEarlierRecords()
        let input = records(zone: zone)
        // One record to a batch: each goes in by its own statement.
        var single = input.reversed().map { ImportBatch(records: [$0]) }
        #expect(try alone.privateDB.importRecords(batches: { single.popLast() }) == 700)

        let (chunked, _) = try storeWithEarlierRecords()
        var batch = ImportBatch(records: input)
        if prepares { batch.prepare() }
        var batches = [batch]
        #expect(try chunked.privateDB.importRecords(batches: { batches.popLast() }) == 700)

        let expected = try contents(alone)
        #expect(expected.count > 1500)
        #expect(try contents(chunked) == expected)
        // And the index rows are those saving each record writes (no held rows there).
        let (saved, _) = try storeWithEarlierRecords()
        try saved.privateDB.modifyRecordZones(saving: [ZoneID(zoneName: "Other")])
        for record in input {
            var fresh = record
            fresh.recordChangeTag = nil
            _ = try saved.privateDB.modifyRecords(saving: [fresh], savePolicy: .allKeys).saveResults[0].result.get()
        }
        #expect(try IndexUpdateDifferentialTests.indexRows(saved.store) == IndexUpdateDifferentialTests.indexRows(chunked.store))
        // A name repeated inside a chunk holds its last version only.
        let repeated = try #require(input.lastIndex { $0.recordName == "r\(input.count / 2)" })
        let stored = try chunked.privateDB.record(for: input[repeated].recordID)
        #expect(stored.recordChangeTag == input[repeated].recordChangeTag)
        #expect(stored["label"] == input[repeated]["label"])
    }

    /// In the public database the second write of a name is a change, checked against the
    /// record the first wrote: a role that may create but not change is refused it, in a chunk
    /// as when written alone.
    @Test func aPublicImportChecksARepeatedNameAgainstItsFirstWrite() throws {
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(text: """
            DEFINE SCHEMA
                RECORD TYPE Log (entry STRING QUERYABLE, GRANT CREATE TO "_icloud", GRANT READ TO "_world");
            """)
        let dave = try temp.store.createUser(alias: "dave")
        let database = temp.store.database(.public, caller: .user(dave.recordName))
        let log = { (entry: String, name: String) in Record(recordType: "Log", recordID: RecordID(recordName: name), fields: ["entry": .string(entry)]) }
        var batches = [ImportBatch(records: [log("first", "log-1"), log("other", "log-2"), log("second", "log-1")])]
        #expect(throws: CloudKitError.self) { try database.importRecords(batches: { batches.popLast() }) }
        // Nothing of the refused import stays (the public database holds the users' records).
        #expect(try temp.store.database(.public).exportCount(recordType: "Log") == 0)

        // Distinct names are all created.
        var distinct = [ImportBatch(records: (0..<300).map { log("entry \($0)", "log-\($0)") })]
        #expect(try database.importRecords(batches: { distinct.popLast() }) == 300)
        #expect(try temp.store.database(.public).record(for: RecordID(recordName: "log-299"))["entry"] == .string("entry 299"))
    }

    /// Index rows of `input` saved one record at a time into a store holding the earlier records.
    private func savedRows(_ input: [Record], schema: String? = nil) throws -> [String] {
        let (saved, _) = try storeWithEarlierRecords()
        if let schema { _ = try saved.store.importSchema(text: schema) }
        try saved.privateDB.modifyRecordZones(saving: [ZoneID(zoneName: "Other")])
        for record in input {
            var fresh = record
            fresh.recordChangeTag = nil
            _ = try saved.privateDB.modifyRecords(saving: [fresh], savePolicy: .allKeys).saveResults[0].result.get()
        }
        return try IndexUpdateDifferentialTests.indexRows(saved.store)
    }

    /// Batches of 100 prepared as a line import's reading thread prepares them, after the
    /// writer has said which zone and type row ids it met (`scopes`), so their full-text rows
    /// are made ahead; `lying` first tells the reading side wrong ids for the main zone.
    private func importPrepared(_ input: [Record], schema: String? = nil, lying: Bool = false) throws -> [String] {
        let (chunked, zone) = try storeWithEarlierRecords()
        if let schema { _ = try chunked.store.importSchema(text: schema) }
        let scopes = ImportScopes()
        var batches = stride(from: 0, to: input.count, by: 100).map { ImportBatch(records: Array(input[$0..<min($0 + 100, input.count)])) }
        batches.reverse()
        var madeAhead = 0
        let count = try chunked.privateDB.importRecords(batches: {
            guard var batch = batches.popLast() else { return nil }
            if lying, madeAhead == 0 { scopes.record(zone: zone, type: "Item", zoneRowID: 999, typeID: 998, fields: [:]) }
            batch.prepare(scopes: scopes)
            madeAhead += batch.prepared?.filter { !$0.text.isEmpty }.count ?? 0
            return batch
        }, progress: { _ in }, indexRowLimit: 1_000_000, scopes: scopes)
        #expect(count == input.count)
        #expect(madeAhead > input.count / 2, "most records' full-text rows were made ahead")
        return try IndexUpdateDifferentialTests.indexRows(chunked.store)
    }

    @Test func fullTextRowsMadeAheadAreTheOnesTheWriterMakes() throws {
        let input = records(zone: ZoneID(zoneName: "Bulk"))
        let expected = try savedRows(input)
        #expect(expected.contains { $0.hasPrefix("text ") })
        #expect(try importPrepared(input) == expected)
        // Ids that are not the zone's own are not used.
        #expect(try importPrepared(input, lying: true) == expected)
    }

    /// A type with a string field that is not SEARCHABLE: the rows made ahead hold its words, so
    /// the writer makes its own.
    @Test func aTypeSearchingSomeStringsMakesItsOwnFullTextRows() throws {
        let schema = """
            DEFINE SCHEMA
                RECORD TYPE Item (count INT64 QUERYABLE, label STRING QUERYABLE SEARCHABLE, tags LIST<STRING> QUERYABLE);
            """
        let input = records(zone: ZoneID(zoneName: "Bulk"))
        let expected = try savedRows(input, schema: schema)
        #expect(try importPrepared(input, schema: schema) == expected)
    }

    /// A record whose type declares all its fields skips the look for assets only when the
    /// type has no ASSET field: one that has it still needs the content each record points at,
    /// and a record pointing at content the store lacks is refused by name, with nothing of
    /// the import written.
    @Test func aRecordOfATypeWithAnAssetFieldStillNeedsItsContent() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let content = Data("cover".utf8)
        let held = Asset(fileChecksum: SHA256.hexDigest(content), size: Int64(content.count))
        // The type learns its ASSET field from a first import, which brings the content.
        try temp.privateDB.importRecords([Record(recordType: "Book", recordID: RecordID(recordName: "b0", zoneID: zone), fields: ["cover": .asset(held)])],
                                         assets: [content])
        let missing = Asset(fileChecksum: String(repeating: "ab", count: 32), size: 3)
        let input = (1...300).map { Record(recordType: "Book", recordID: RecordID(recordName: "b\($0)", zoneID: zone),
                                           fields: ["cover": .asset($0 == 280 ? missing : held)]) }
        do {
            try temp.privateDB.importRecords(input)
            Issue.record("a record pointing at missing content was written")
        } catch let error as CloudKitError {
            #expect(error.code == .assetFileNotFound)
            #expect(error.message.contains("'b280'"))
        }
        #expect(try temp.privateDB.records(matching: Query(recordType: "Book"), inZoneWith: zone).records.map(\.recordName) == ["b0"])
    }

    /// What the reading thread was told before this transaction began is not trusted: a
    /// record it thought declared (its snapshot of the type had the field) is checked again,
    /// and the schema learns the field.
    @Test func aSchemaToldBeforeTheTransactionIsCheckedAgain() throws {
        let (chunked, zone) = try storeWithEarlierRecords()
        let ids = try chunked.store.read { db in
            (try Int64.fetchOne(db.sqlite, sql: "SELECT id FROM zone WHERE name = 'Bulk'") ?? 0,
             try Int64.fetchOne(db.sqlite, sql: "SELECT id FROM record_type WHERE name = 'Item'") ?? 0)
        }
        typealias Field = SchemaCatalog.TypeEntry.Field
        let claimed: [String: Field] = [
            "count": Field(id: 1, type: .int64, searchesText: false, indexesValues: true),
            "label": Field(id: 2, type: .string, searchesText: true, indexesValues: true),
            "extra": Field(id: 3, type: .int64, searchesText: false, indexesValues: true),
        ]
        let scopes = ImportScopes()
        scopes.record(zone: zone, type: "Item", zoneRowID: ids.0, typeID: ids.1, fields: claimed)
        let input = (0..<20).map { Record(recordType: "Item", recordID: RecordID(recordName: "x\($0)", zoneID: zone),
                                          fields: ["count": .int64(Int64($0)), "label": .string("l\($0)"), "extra": .int64(7)]) }
        var batch = ImportBatch(records: input)
        batch.prepare(scopes: scopes)
        #expect(batch.prepared?.allSatisfy { $0.declaredFields != nil } == true)
        var batches = [batch]
        _ = try chunked.privateDB.importRecords(batches: { batches.popLast() }, progress: { _ in }, indexRowLimit: 1_000_000, scopes: scopes)
        let extra = try chunked.privateDB.records(matching: Query(recordType: "Item", predicateFormat: "extra == 7"), inZoneWith: zone).records
        #expect(extra.count == 20)
        #expect(try IndexUpdateDifferentialTests.indexRows(chunked.store) == savedRows(input))
    }
}
