import Foundation
import Testing
import StratusModel
@testable import StratusEngine

@Suite struct InterchangeTests {
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
        var note = try temp.privateDB.record(for: RecordID(recordName: "n1"))
        note["text"] = .string("edited by bob")
        try temp.store.database(.private, user: "_bob").save(note)
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-lines-\(UUID().uuidString).jsonl")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var reader = RecordLinesReader(handle: handle, store: database.store)
        var count = 0
        while true {
            let records = try reader.next(batch)
            if records.isEmpty { break }
            try database.importRecords(records)
            count += records.count
        }
        return count
    }

    private func allRecords(_ database: CloudDatabase) throws -> [String: Record] {
        var result: [String: Record] = [:]
        for zone in try database.allRecordZones() {
            let names = try database.store.read { db in
                try String.fetchAll(db, sql: "SELECT record.name FROM record JOIN zone ON zone.id = record.zone_id WHERE zone.name = ? AND zone.scope = ?",
                                    arguments: [zone.zoneID.zoneName, database.scope.rawValue])
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
        try temp.privateDB.importRecords([good])
        let fetched = try temp.privateDB.record(for: RecordID(recordName: "a"))
        #expect(fetched.creatorUserRecordName == temp.store.owner)
        #expect(fetched.recordChangeTag?.count == 10)
    }

    @Test func brokenLinesAreReportedWithTheirLineNumber() throws {
        let temp = try TemporaryStore()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bad-\(UUID().uuidString).jsonl")
        try Data("{\"recordType\":\"Note\",\"recordName\":\"a\",\"fields\":{}}\n\n{\"recordType\": 3}\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        var reader = RecordLinesReader(handle: handle, store: temp.store)
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
