import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing
import class GRDB.Row
import struct GRDB.DatabaseValue
import struct GRDB.StatementArguments
import StratusCKWS

@Suite(.onEveryBackend) struct InterchangeTests {
    /// Records of every type in two zones of the private database, one updated by another user.
    private func seeded() throws -> TemporaryStore {
        let temp = try TemporaryStore()
        let travel = try temp.zone("Travel")
        let asset = try temp.store.putAsset(Data("asset content ✈️".utf8))
        let location = Location(latitude: 35.6812, longitude: 139.7671, altitude: 40, horizontalAccuracy: 5, verticalAccuracy: nil,
                                course: 90, speed: 1.5, timestamp: Date(timeIntervalSince1970: 1_700_000_000.123))
        var everything = Record(recordType: "Everything", recordID: RecordID(recordName: "all-types", zoneID: travel))
        everything["title"] = .string("東京 🗼 café \"quoted\" \\ back\nslash\u{1}")
        everything["count"] = .int64(Int64.min)
        everything["big"] = .int64(Int64.max)
        everything["ratio"] = .double(-0.1)
        everything["whole"] = .double(3)
        everything["tiny"] = .double(.leastNonzeroMagnitude)
        everything["huge"] = .double(1.7976931348623157e308)
        everything["when"] = .timestamp(Date(timeIntervalSince1970: 1_715_000_000.5))
        everything["blob"] = .bytes(Data([0, 1, 2, 255]))
        everything["file"] = .asset(asset)
        everything["files"] = .list(.asset, [.asset(asset)])
        everything["owner"] = .reference(Reference(recordName: "someone", action: .deleteSelf))
        everything["place"] = .location(location)
        everything["places"] = .list(.location, [.location(Location(latitude: -33.9, longitude: 151.2))])
        everything["tags"] = .list(.string, [.string("red"), .string("green")])
        everything["scores"] = .list(.int64, [.int64(1), .int64(-2)])
        everything["weights"] = .list(.double, [.double(0.5)])
        everything["times"] = .list(.timestamp, [.timestamp(Date(timeIntervalSince1970: 1))])
        everything["blobs"] = .list(.bytes, [.bytes(Data())])
        everything["links"] = .list(.reference, [.reference(Reference(recordName: "x"))])
        everything["empty"] = .list(.double, [])
        everything.parent = Reference(recordName: "someone")
        try temp.privateDB.save(everything)
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1"), fields: ["text": .string("default zone")]))
        // Only its owner writes a private database: another user's edit arrives as a restore.
        var note = try temp.privateDB.record(for: RecordID(recordName: "n1"))
        note["text"] = .string("edited by bob")
        note.lastModifiedUserRecordName = "_bob"
        note.recordChangeTag = nil
        _ = try temp.privateDB.importRecords([note])
        _ = try temp.privateDB.modifyRecords(saving: (0..<400).map { index in
            Record(recordType: "Place", recordID: RecordID(recordName: "place-\(index)", zoneID: travel),
                   fields: ["name": .string("Place \(index)"), "visits": .int64(Int64(index))])
        })
        return temp
    }

    private func export(_ database: CloudDatabase, zone: ZoneID? = nil, type: String? = nil) throws -> Data {
        var output = Data()
        var chunks = 0
        try database.exportRecords(zone: zone, recordType: type, chunkSize: 4096, write: { output.append($0); chunks += 1 })
        #expect(chunks >= 1)
        return output
    }

    private func importAll(_ data: Data, into database: CloudDatabase, batch: Int = 100) throws -> Int {
        let folder = try TemporaryDirectory("stratus-lines")
        defer { folder.remove() }
        let handle = try FileHandle(forReadingFrom: try folder.write(data, to: "records.jsonl"))
        defer { try? handle.close() }
        var reader = RecordLinesReader(handle: handle)
        return try database.importRecords(batches: {
            let next = try reader.next(batch)
            return next.records.isEmpty ? nil : next
        })
    }

    private func allRecords(_ database: CloudDatabase) throws -> [String: Record] {
        var result: [String: Record] = [:]
        for zone in try database.allRecordZones() {
            let names = try database.store.read { db in
                let row = try AccessGate(database, db: db, catalog: database.store.catalog(db)).zone(zone.zoneID)
                var names: [String] = []
                try db.records.forEach(zoneRowID: row.id) { names.append($0.name) }
                return names
            }
            for name in names {
                let record = try database.record(for: RecordID(recordName: name, zoneID: zone.zoneID))
                result["\(zone.zoneID.zoneName)/\(name)"] = record
            }
        }
        return result
    }

    @Test func exportThenImportIntoAFreshStoreKeepsEveryFieldAndSystemField() throws {
        let source = try seeded()
        let data = try export(source.privateDB)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 402)
        #expect(lines.filter { $0.contains("\"downloadURL\":\"data:") }.count == 1)
        #expect(try source.privateDB.exportCount() == 402)

        let target = try TemporaryStore()
        #expect(try importAll(data, into: target.privateDB) == 402)
        let before = try allRecords(source.privateDB)
        let after = try allRecords(target.privateDB)
        #expect(before.count == 402)
        #expect(Set(before.keys) == Set(after.keys))
        for (key, record) in before {
            let copy = try #require(after[key])
            #expect(copy.fields == record.fields, "\(key)")
            #expect(copy.recordType == record.recordType)
            #expect(copy.recordChangeTag == record.recordChangeTag)
            #expect(copy.creationDate == record.creationDate)
            #expect(copy.modificationDate == record.modificationDate)
            #expect(copy.creatorUserRecordName == record.creatorUserRecordName)
            #expect(copy.lastModifiedUserRecordName == record.lastModifiedUserRecordName)
            #expect(copy.parent == record.parent)
        }
        #expect(after["_defaultZone/n1"]?.lastModifiedUserRecordName == "_bob")
        let asset = try #require(after["Travel/all-types"]?["file"])
        guard case .asset(let value) = asset else { Issue.record("not an asset"); return }
        #expect(try target.store.assetData(checksum: value.fileChecksum) == Data("asset content ✈️".utf8))
        // Exporting the copy gives the same bytes: nothing was lost or reordered.
        #expect(try export(target.privateDB) == data)
    }

    @Test func importedRecordsAreIndexedAndInTheChangeFeed() throws {
        let source = try seeded()
        let target = try TemporaryStore()
        _ = try importAll(try export(source.privateDB, zone: ZoneID(zoneName: "Travel")), into: target.privateDB)
        let travel = ZoneID(zoneName: "Travel")
        let page = try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: "visits >= 398"), inZoneWith: travel)
        #expect(page.records.map(\.recordName).sorted() == ["place-398", "place-399"])
        let text = try target.privateDB.records(matching: Query(recordType: "Everything", predicateFormat: "self CONTAINS 'café'"), inZoneWith: travel)
        #expect(text.records.count == 1)
        let changes = try target.privateDB.recordZoneChanges(inZoneWith: travel, resultsLimit: 1000)
        #expect(changes.changes.count == 401)
        #expect(!changes.moreComing)
        // Importing again replaces records in place: still one row per name, one change each.
        let token = try target.privateDB.currentToken(for: travel)
        _ = try importAll(try export(source.privateDB, zone: travel, type: "Place"), into: target.privateDB)
        #expect(try target.privateDB.exportCount(zone: travel) == 401)
        #expect(try target.privateDB.recordZoneChanges(inZoneWith: travel, since: token, resultsLimit: 1000).changes.count == 400)
        #expect(try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: "visits == 3"), inZoneWith: travel).records.count == 1)
    }

    @Test func fastLineWriterWritesExactlyWhatRecordJSONEncodes() throws {
        let source = try seeded()
        var output = Data()
        try source.privateDB.exportRecords(zone: ZoneID(zoneName: "Travel"), embedAssets: false, write: { output.append($0) })
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 401)
        for line in lines.prefix(3) {
            let json = try JSONParser.parse(String(line))
            let name = try #require(json["recordName"]?.stringValue)
            let record = try source.privateDB.record(for: RecordID(recordName: name, zoneID: ZoneID(zoneName: "Travel")))
            #expect(String(line) == JSONWriter.string(RecordJSON.encode(record)))
        }
    }

    @Test func exportNarrowsByZoneAndType() throws {
        let source = try seeded()
        #expect(try source.privateDB.exportCount(zone: .default) == 1)
        #expect(try source.privateDB.exportCount(recordType: "Place") == 400)
        let lines = String(decoding: try export(source.privateDB, type: "Note"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines[0].contains(#""zoneID":{"zoneName":"_defaultZone""#))
        #expect(lines[0].contains(#""modified":{"timestamp":"#))
        #expect(throws: CloudKitError.self) { try source.privateDB.exportCount(recordType: "Nothing") }
    }

    @Test func importChecksTheSchemaAndIsAllOrNothingPerBatch() throws {
        let temp = try TemporaryStore()
        try temp.store.importSchema(text: "DEFINE SCHEMA RECORD TYPE Note (text STRING QUERYABLE);", environment: .production)
        let good = Record(recordType: "Note", recordID: RecordID(recordName: "a"), fields: ["text": .string("ok")])
        let bad = Record(recordType: "Note", recordID: RecordID(recordName: "b"), fields: ["nope": .int64(1)])
        do {
            try temp.privateDB.importRecords([good, bad])
            Issue.record("imported an undeclared field into production")
        } catch let error as CloudKitError {
            #expect(error.message.hasPrefix("Record 'b':"))
        }
        #expect(try temp.privateDB.exportCount() == 0)
        // Prepared, as a line import hands batches over: a declared field holding another type
        // is still refused, though the record passed every check that needs no schema.
        let mistyped = Record(recordType: "Note", recordID: RecordID(recordName: "c"), fields: ["text": .int64(7)])
        var batch = ImportBatch(records: [good, mistyped])
        batch.prepare()
        var handed = false
        do {
            try temp.privateDB.importRecords(batches: {
                defer { handed = true }
                return handed ? nil : batch
            })
            Issue.record("imported an INT64 into a STRING field")
        } catch let error as CloudKitError {
            #expect(error.message.hasPrefix("Record 'c':"))
            #expect(error.message.contains("STRING"))
        }
        #expect(try temp.privateDB.exportCount() == 0)
        try temp.privateDB.importRecords([good])
        let fetched = try temp.privateDB.record(for: RecordID(recordName: "a"))
        #expect(fetched.creatorUserRecordName == temp.store.owner)
        #expect(fetched.recordChangeTag?.count == 10)
    }

    @Test func brokenLinesAreReportedWithTheirLineNumber() throws {
        let folder = try TemporaryDirectory("stratus-bad")
        defer { folder.remove() }
        let url = try folder.write(Data("{\"recordType\":\"Note\",\"recordName\":\"a\",\"fields\":{}}\n\n{\"recordType\": 3}\n".utf8), to: "records.jsonl")
        let handle = try FileHandle(forReadingFrom: url)
        var reader = RecordLinesReader(handle: handle)
        #expect(try reader.next()?.recordName == "a")
        do {
            _ = try reader.next()
            Issue.record("read a broken line")
        } catch let failure as RecordLinesReader.Failure {
            #expect(failure.line == 3)
            #expect(failure.message.contains("recordType"))
        }
    }
}

/// The import's bulk path (index rows held back and written sorted, one transaction) against
/// the save path it must agree with.
@Suite struct BulkImportTests {
    /// Every `field_value` and `reference_edge` row by names instead of row ids, so two stores
    /// compare.
    private func indexRows(_ temp: TemporaryStore) throws -> [String] {
        try temp.store.read { db in
            let values = try Row.fetchAll(db.sqlite, sql: """
                SELECT z.name, t.name, f.name, v.value, v.folded, r.name FROM field_value v
                JOIN zone z ON z.id = v.zone_id JOIN schema_field f ON f.id = v.field_id
                JOIN record_type t ON t.id = f.type_id JOIN record r ON r.id = v.record_id
                """).map { "\($0[0] as String)/\($0[1] as String).\($0[2] as String)=\($0[3] as DatabaseValue)|\($0[4] as DatabaseValue)@\($0[5] as String)" }
            let edges = try Row.fetchAll(db.sqlite, sql: """
                SELECT z.name, e.target, r.name FROM reference_edge e JOIN zone z ON z.id = e.zone_id JOIN record r ON r.id = e.source_id
                """).map { "edge \($0[0] as String) \($0[1] as String)<-\($0[2] as String)" }
            // Full-text rows, their tokens in order with the zone and type row ids left out
            // (another store may number them otherwise).
            let texts = try Row.fetchAll(db.sqlite, sql: "SELECT r.name, t.tokens FROM record_text t JOIN record r ON r.id = t.rowid").map { row in
                let tokens = (row[1] as String).split(separator: " ").map { $0.drop { $0 != "x" }.dropFirst() }
                return "text \(row[0] as String): \(tokens.sorted().joined(separator: " "))"
            }
            return (values + edges + texts).sorted()
        }
    }

    private func randomRecords(count: Int, seed: UInt64, zone: ZoneID) -> [Record] {
        var generator = SeededGenerator(seed: seed)
        let words = ["Harbour", "harbour", "Café", "東京", "zeta", "Alpha", "alpha", "", "b"]
        return (0..<count).map { index in
            var record = Record(recordType: "Thing", recordID: RecordID(recordName: "thing-\(generator.below(count * 2))-\(index)", zoneID: zone))
            record["word"] = .string(words[generator.below(words.count)])
            record["number"] = .int64(Int64(generator.below(50)) - 25)
            record["ratio"] = .double(Double(generator.below(1000)) / 7)
            record["tags"] = .list(.string, (0..<generator.below(4)).map { _ in .string(words[generator.below(words.count)]) })
            record["owner"] = .reference(Reference(recordName: "thing-\(generator.below(count))", action: generator.below(2) == 0 ? .deleteSelf : .none))
            // Few distinct places, so equal Z-order codes meet in the sorted write.
            func place() -> FieldValue { .location(Location(latitude: Double(generator.below(5)) - 2.5, longitude: 179 + Double(generator.below(3)) / 2)) }
            record["where"] = place()
            record["stops"] = .list(.location, (0..<generator.below(3)).map { _ in place() })
            return record
        }
    }

    @Test func importWritesTheSameIndexRowsAsSavingWhateverTheBufferSize() throws {
        let source = try TemporaryStore()
        let zone = try source.zone("Bulk")
        for chunk in stride(from: 0, to: 600, by: 200) {
            _ = try source.privateDB.modifyRecords(saving: Array(randomRecords(count: 600, seed: 3, zone: zone)[chunk..<chunk + 200]))
        }
        let expected = try indexRows(source)
        #expect(expected.count > 2000)
        var exported = [Record]()
        try source.privateDB.exportRecords(zone: zone, embedAssets: false, write: { chunk in
            for line in String(decoding: chunk, as: UTF8.self).split(separator: "\n") {
                exported.append(try RecordJSON.decode(try JSONParser.parse(String(line)), zoneID: zone))
            }
        })
        #expect(expected.contains { $0.hasPrefix("text ") })
        // Prepared batches (as a line import's reading thread hands them over) take the path
        // where a record whose fields the schema declares skips the schema checks.
        for (limit, prepares) in [(1, false), (7, true), (1_000_000, false), (1_000_000, true)] {
            let target = try TemporaryStore()
            var batches = stride(from: 0, to: exported.count, by: 150).map { ImportBatch(records: Array(exported[$0..<min($0 + 150, exported.count)])) }
            if prepares { for index in batches.indices { batches[index].prepare() } }
            batches.reverse()
            let count = try target.privateDB.importRecords(batches: { batches.popLast() }, progress: { _ in }, indexRowLimit: limit)
            #expect(count == 600)
            #expect(try indexRows(target) == expected, "buffer of \(limit) rows, prepared: \(prepares)")
        }
    }

    /// Limits of 1 and 3 rows: the first version's rows have gone to a spill file by the time the
    /// second replaces it, so the replace merges them in first, and a new spill starts after.
    @Test(arguments: [1, 3, 1_000_000])
    func aRecordRepeatedInOneImportKeepsOnlyItsLastValuesIndexed(indexRowLimit: Int) throws {
        let target = try TemporaryStore()
        let first = Record(recordType: "Place", recordID: RecordID(recordName: "p"), fields: ["visits": .int64(1), "name": .string("Old")])
        let filler = (0..<5).map { Record(recordType: "Place", recordID: RecordID(recordName: "f\($0)"), fields: ["visits": .int64(9)]) }
        let second = Record(recordType: "Place", recordID: RecordID(recordName: "p"), fields: ["visits": .int64(2), "name": .string("New")])
        let more = (5..<9).map { Record(recordType: "Place", recordID: RecordID(recordName: "f\($0)"), fields: ["visits": .int64(9), "name": .string("F\($0)")]) }
        var batches = [ImportBatch(records: [first] + filler), ImportBatch(records: [second] + more)].reversed() as [ImportBatch]
        _ = try target.privateDB.importRecords(batches: { batches.popLast() }, progress: { _ in }, indexRowLimit: indexRowLimit)
        func names(_ predicate: String) throws -> [String] {
            try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: predicate)).records.map(\.recordName)
        }
        #expect(try names("visits == 1") == [])
        #expect(try names("visits == 2") == ["p"])
        #expect(try names("name == 'old'") == [])
        #expect(try names("name == 'new'") == ["p"])
        #expect(try names("visits == 9").sorted() == (0..<9).map { "f\($0)" })
        #expect(try names("name == 'F7'") == ["f7"])
        #expect(try target.privateDB.exportCount() == 10)
    }

    @Test func aStoredRecordRepeatedInOneImportKeepsOnlyItsLastValuesIndexed() throws {
        let target = try TemporaryStore()
        let place = RecordID(recordName: "p")
        try target.privateDB.save(Record(recordType: "Place", recordID: place, fields: ["visits": .int64(0), "home": .reference(Reference(recordName: "h0", action: .deleteSelf))]))
        let version = { (visits: Int64, home: String) in
            Record(recordType: "Place", recordID: place, fields: ["visits": .int64(visits), "home": .reference(Reference(recordName: home, action: .deleteSelf))])
        }
        try target.privateDB.importRecords([version(1, "h1"), version(2, "h2")])
        func names(_ predicate: String) throws -> [String] {
            try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: predicate)).records.map(\.recordName)
        }
        #expect(try names("visits == 0") == [])
        #expect(try names("visits == 1") == [])
        #expect(try names("visits == 2") == ["p"])
        // Only the last version's DELETE_SELF edge is left: deleting an older target deletes nothing.
        try target.privateDB.save(Record(recordType: "Home", recordID: RecordID(recordName: "h1")))
        try target.privateDB.deleteRecord(withID: RecordID(recordName: "h1"))
        #expect(try target.privateDB.record(for: place)["visits"] == .int64(2))
    }

    @Test func aFailureInALaterBatchLeavesTheStoreAsItWas() throws {
        let target = try TemporaryStore()
        try target.privateDB.save(Record(recordType: "Place", recordID: RecordID(recordName: "kept"), fields: ["visits": .int64(1)]))
        let good = (0..<300).map { Record(recordType: "Place", recordID: RecordID(recordName: "g\($0)"), fields: ["visits": .int64(Int64($0))]) }
        let bad = Record(recordType: "Place", recordID: RecordID(recordName: "bad"), fields: ["visits": .string("many")])
        var batches = [ImportBatch(records: good), ImportBatch(records: [bad])].reversed() as [ImportBatch]
        #expect(throws: CloudKitError.self) {
            try target.privateDB.importRecords(batches: { batches.popLast() })
        }
        struct ReaderGaveUp: Error {}
        var calls = 0
        #expect(throws: ReaderGaveUp.self) {
            try target.privateDB.importRecords(batches: {
                calls += 1
                if calls == 2 { throw ReaderGaveUp() }
                return ImportBatch(records: good)
            })
        }
        #expect(try target.privateDB.exportCount() == 1)
        #expect(try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: "visits >= 0")).records.map(\.recordName) == ["kept"])
    }

    @Test(.sqliteOnly("SQLite's own order of text")) func heldTextIsSortedAsSQLiteSortsIt() throws {
        #expect(UTF8Order.compare("a", "b") < 0)
        #expect(UTF8Order.compare("ab", "a") > 0)
        #expect(UTF8Order.compare("", "") == 0)
        #expect(UTF8Order.compare("", "a") < 0)
        #expect(UTF8Order.compare("Z", "a") < 0)
        #expect(UTF8Order.compare("é", "z") > 0)
        let words = ["b", "", "東京", "é", "e\u{301}", "Z", "a", "ab", "👍"]
        let sqlite = try TemporaryStore().store.read { db in
            try String.fetchAll(db.sqlite, sql: "SELECT column1 FROM (VALUES " + words.map { _ in "(?)" }.joined(separator: ",") + ") ORDER BY column1",
                                arguments: StatementArguments(words))
        }
        #expect(words.sorted { UTF8Order.compare($0, $1) < 0 } == sqlite)
        // The same order through the eight-byte prefixes of held texts, ties broken by record.
        let repeated = words + ["abcdefgh1", "abcdefgh0", "abcdefgh", "a"]
        var held = HeldTexts()
        for (index, word) in repeated.enumerated() { held.append(word, recordID: Int64(index)) }
        let order = held.keyOrder()
        #expect(order.map { repeated[$0] } == repeated.sorted { UTF8Order.compare($0, $1) < 0 })
        #expect(order.filter { repeated[$0] == "a" } == [6, 12])
    }

    @Test func theSortingHelperHandsEachFieldOverSortedWhicheverIsTakenFirst() {
        var generator = SeededGenerator(seed: 19)
        let fields: [(IndexRowBuffer.FieldKey, HeldFieldRows)] = (0..<6).map { field in
            var rows = HeldFieldRows(folds: field.isMultiple(of: 2))
            for record in (0..<500).shuffled(using: &generator) {
                rows.integers.append((Int64(record % 37), Int64(record)))
                rows.reals.append((Double(record % 11) / 3, Int64(record)))
                rows.texts.append(["kiwi", "Äpfel", "apple", "東京", ""][record % 5], recordID: Int64(record))
            }
            return (IndexRowBuffer.FieldKey(zoneRowID: 1, fieldID: Int64(field)), rows)
        }
        let sorter = HeldRowsSorter(fields)
        // Taken out of order: the last field waits for every earlier one to be sorted first.
        for index in [5, 0, 3, 1, 2, 4] {
            let rows = sorter.take(index)
            #expect(rows.folds == index.isMultiple(of: 2))
            #expect(rows.integers.count == 500 && rows.reals.count == 500 && rows.textOrder.count == 500)
            #expect(zip(rows.integers, rows.integers.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) })
            #expect(zip(rows.reals, rows.reals.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) })
            let texts = rows.textOrder.map { (rows.texts.text(at: $0), rows.texts.recordID(at: $0)) }
            #expect(zip(texts, texts.dropFirst()).allSatisfy { a, b in
                let order = UTF8Order.compare(a.0, b.0)
                return order < 0 || (order == 0 && a.1 < b.1)
            })
        }
    }

    private func lines(_ count: Int, bad: (Int) -> String?) throws -> FileHandle {
        let text = (1...count).map { line in
            bad(line) ?? #"{"recordName": "p\#(line)", "recordType": "Place", "fields": {"visits": {"value": \#(line)}}}"#
        }.joined(separator: "\n")
        let folder = try TemporaryDirectory("stratus-lines")
        defer { folder.remove() }
        return try FileHandle(forReadingFrom: try folder.write(Data(text.utf8), to: "records.jsonl"))
    }

    @Test func lineImportsCommitEachTransactionAndSayWhereTheyStopped() throws {
        let target = try TemporaryStore()
        var seen: [String] = []
        let written = try target.privateDB.importRecords(lines: try lines(250) { _ in nil }, recordsPerTransaction: 100, batchSize: 50,
                                                          progress: { seen.append("\($0.records)\($0.committing ? " committing" : "")") })
        #expect(written == 250)
        // Each transaction's end is said before its index rows are written and it commits.
        #expect(seen == ["50", "100", "100 committing", "150", "200", "200 committing", "250", "250 committing"])
        #expect(try target.privateDB.records(matching: Query(recordType: "Place", predicateFormat: "visits == 250")).records.count == 1)

        // A line that is not a record: the two transactions before it stay, its own does not.
        let broken = try TemporaryStore()
        do {
            try broken.privateDB.importRecords(lines: try lines(260) { $0 == 251 ? "{\"recordName\": " : nil }, recordsPerTransaction: 100, batchSize: 50)
            Issue.record("imported a broken line")
        } catch let failure as LineImportFailure {
            #expect(failure.line == 251)
            #expect(failure.recordsBefore == 200)
            #expect(failure.underlying is RecordLinesReader.Failure)
        }
        #expect(try broken.privateDB.exportCount() == 200)

        // A record the store refuses: named by the batch it was in.
        let refused = try TemporaryStore()
        do {
            try refused.privateDB.importRecords(lines: try lines(260) { line in
                line == 180 ? #"{"recordName": "x", "recordType": "Place", "fields": {"visits": {"value": "many"}}}"# : nil
            }, recordsPerTransaction: 100, batchSize: 50)
            Issue.record("imported a refused record")
        } catch let failure as LineImportFailure {
            #expect(failure.line == 200)
            #expect(failure.recordsBefore == 100)
            #expect((failure.underlying as? CloudKitError)?.message.hasPrefix("Record 'x':") == true)
        }
        #expect(try refused.privateDB.exportCount() == 100)
    }

    /// Rules that need no schema are checked on the reading thread; a record breaking one must
    /// still be refused with the message a save gives, for its first field by name.
    @Test(arguments: [
        (#"{"recordName": "bad", "recordType": "Place", "fields": {"where": {"value": {"latitude": 100, "longitude": 0}, "type": "LOCATION"}}}"#,
         "Record 'bad': Field 'where' holds a location off the Earth"),
        (#"{"recordName": "bad", "recordType": "Place", "fields": {"z-z": {"value": 1}, "a-a": {"value": 2}}}"#,
         "Record 'bad': 'a-a' is not a valid field name"),
        (#"{"recordName": "bad", "recordType": "Place", "fields": {"visits": {"value": "many"}, "zz": {"value": {"recordName": "é"}, "type": "REFERENCE"}}}"#,
         "Record 'bad': Invalid value for field 'visits'"),
        (#"{"recordName": "", "recordType": "Place", "fields": {}}"#, "Record '': Invalid record name"),
    ])
    func lineImportsRefuseBadRecordsAsSavesDo(line: String, message: String) throws {
        let target = try TemporaryStore()
        do {
            try target.privateDB.importRecords(lines: try lines(30) { $0 == 20 ? line : nil }, recordsPerTransaction: 10, batchSize: 5)
            Issue.record("the import should have failed")
        } catch let failure as LineImportFailure {
            #expect(failure.recordsBefore == 10)
            let text = (failure.underlying as? CloudKitError)?.message ?? "\(failure.underlying)"
            #expect(text.hasPrefix(message), "\(text)")
        }
    }

    @Test func embeddedAssetsAreWrittenInTheImportTransaction() throws {
        let target = try TemporaryStore()
        let content = Data("cover ✈️".utf8)
        let asset = Asset(fileChecksum: SHA256.hexDigest(content), size: Int64(content.count))
        let record = Record(recordType: "Book", recordID: RecordID(recordName: "b"), fields: ["cover": .asset(asset)])
        try target.privateDB.importRecords([record], assets: [content])
        #expect(try target.store.assetData(checksum: asset.fileChecksum) == content)
        // Without the content, the same record is refused and nothing is written.
        let other = try TemporaryStore()
        #expect(throws: CloudKitError.self) { try other.privateDB.importRecords([record]) }
        #expect(try other.privateDB.exportCount() == 0)
    }
}
