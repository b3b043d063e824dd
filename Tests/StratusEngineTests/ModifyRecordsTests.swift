import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct ModifyRecordsTests {
    @Test func savesAndFetchesEveryFieldType() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let asset = try temp.store.putAsset(Data("hello asset".utf8))
        let location = Location(latitude: 35.6812, longitude: 139.7671, altitude: 40, horizontalAccuracy: 5, verticalAccuracy: nil,
                                course: 90, speed: 1.5, timestamp: Date(timeIntervalSince1970: 1_700_000_000.123))
        var record = Record(recordType: "Everything", recordID: RecordID(recordName: "all-types"))
        record["title"] = .string("東京 🗼 café")
        record["count"] = .int64(Int64.max)
        record["ratio"] = .double(-0.1)
        record["when"] = .timestamp(Date(timeIntervalSince1970: 1_715_000_000.5))
        record["blob"] = .bytes(Data([0, 1, 2, 255]))
        record["file"] = .asset(asset)
        record["owner"] = .reference(Reference(recordName: "someone", action: .none))
        record["place"] = .location(location)
        record["tags"] = .list(.string, [.string("red"), .string("green")])
        record["scores"] = .list(.int64, [.int64(1), .int64(-2)])
        record["empty"] = .list(.double, [])
        let saved = try db.save(record)
        #expect(saved.recordChangeTag != nil)
        #expect(saved.creatorUserRecordName == temp.store.owner)

        let fetched = try db.record(for: RecordID(recordName: "all-types"))
        #expect(fetched.fields == record.fields)
        #expect(fetched.recordType == "Everything")
        #expect(fetched.recordChangeTag == saved.recordChangeTag)
        #expect(fetched.changedKeys.isEmpty)
        #expect(try temp.store.assetData(checksum: asset.fileChecksum) == Data("hello asset".utf8))
    }

    @Test func reopeningKeepsEverything() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone), fields: ["text": .string("kept")]))
        let reopened = try temp.reopened()
        #expect(reopened.storeID == temp.store.storeID)
        let record = try reopened.database(.private).record(for: RecordID(recordName: "n1", zoneID: zone))
        #expect(record["text"] == .string("kept"))
    }

    @Test func unnamedRecordsGetUUIDNames() throws {
        let temp = try TemporaryStore()
        let saved = try temp.privateDB.save(Record(recordType: "Note", fields: ["a": .int64(1)]))
        #expect(UUID(uuidString: saved.recordName) != nil)
    }

    @Test func developmentSchemaGrowsAndRefusesAnotherType() throws {
        let temp = try TemporaryStore()
        try temp.privateDB.save(Record(recordType: "Item", recordID: RecordID(recordName: "a"), fields: ["price": .int64(3), "name": .string("x")]))
        let types = try temp.store.recordTypes()
        let item = try #require(types.first { $0.name == "Item" })
        #expect(item.fields["price"]?.type == .int64)
        #expect(item.fields["price"]?.indexes == [.queryable, .sortable])
        #expect(item.fields["name"]?.indexes == [.queryable, .sortable, .searchable])
        #expect(types.contains { $0.name == "Users" })

        let error = #expect(throws: CloudKitError.self) {
            try temp.privateDB.save(Record(recordType: "Item", recordID: RecordID(recordName: "b"), fields: ["price": .string("3")]))
        }
        #expect(error?.code == .invalidArguments)
        #expect(error?.message.contains("'price'") == true)
        #expect(error?.message.contains("INT64") == true && error?.message.contains("STRING") == true)
    }

    @Test func productionAcceptsOnlyDeclaredTypesAndFields() throws {
        let temp = try TemporaryStore(environment: .production)
        #expect(try temp.store.environment == .production)
        let unknownType = #expect(throws: CloudKitError.self) {
            try temp.privateDB.save(Record(recordType: "Item", fields: ["a": .int64(1)]))
        }
        #expect(unknownType?.code == .invalidArguments)
        #expect(unknownType?.message.contains("production") == true)
        let unknownField = #expect(throws: CloudKitError.self) {
            try temp.privateDB.save(Record(recordType: "Users", fields: ["nickname": .string("x")]))
        }
        #expect(unknownField?.message.contains("'nickname'") == true)
        try temp.privateDB.save(Record(recordType: "Users", fields: ["roles": .list(.int64, [.int64(1)])]))
    }

    @Test func staleChangeTagFailsWithServerRecord() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let first = try db.save(Record(recordType: "Doc", recordID: RecordID(recordName: "d"), fields: ["v": .int64(1)]))
        var edit = first
        edit["v"] = .int64(2)
        let second = try db.save(edit)
        #expect(second.recordChangeTag != first.recordChangeTag)

        var stale = first
        stale["v"] = .int64(3)
        let error = #expect(throws: CloudKitError.self) { try db.save(stale) }
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.code.rawValue == 14)
        #expect(error?.serverRecord?["v"] == .int64(2))
        #expect(error?.serverRecord?.recordChangeTag == second.recordChangeTag)

        let duplicate = #expect(throws: CloudKitError.self) {
            try db.save(Record(recordType: "Doc", recordID: RecordID(recordName: "d"), fields: ["v": .int64(9)]))
        }
        #expect(duplicate?.code == .serverRecordChanged)
    }

    @Test func changedKeysWritesOnlyChangedKeysAndAllKeysKeepsServerOnlyKeys() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let id = RecordID(recordName: "p")
        let original = try db.save(Record(recordType: "Person", recordID: id, fields: ["name": .string("Ann"), "age": .int64(30)]))
        var serverEdit = original
        serverEdit["age"] = .int64(31)
        try db.save(serverEdit)

        var clientEdit = original
        clientEdit["name"] = .string("Anna")
        _ = try db.modifyRecords(saving: [clientEdit], savePolicy: .changedKeys).savedRecords()
        let afterChanged = try db.record(for: id)
        #expect(afterChanged["name"] == .string("Anna"))
        #expect(afterChanged["age"] == .int64(31))

        var sparse = Record(recordType: "Person", recordID: id, fields: ["name": .string("Anne")])
        sparse.recordChangeTag = "whatever"
        _ = try db.modifyRecords(saving: [sparse], savePolicy: .allKeys).savedRecords()
        let afterAll = try db.record(for: id)
        #expect(afterAll["name"] == .string("Anne"))
        #expect(afterAll["age"] == .int64(31))

        var removal = afterAll
        removal["age"] = nil
        try db.save(removal)
        #expect(try db.record(for: id)["age"] == nil)
    }

    @Test func atomicBatchInCustomZoneIsAllOrNothing() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Atomic")
        let db = temp.privateDB
        try db.save(Record(recordType: "T", recordID: RecordID(recordName: "typed", zoneID: zone), fields: ["n": .int64(1)]))
        let good = Record(recordType: "T", recordID: RecordID(recordName: "good", zoneID: zone), fields: ["n": .int64(2)])
        let bad = Record(recordType: "T", recordID: RecordID(recordName: "bad", zoneID: zone), fields: ["n": .string("two")])
        let result = try db.modifyRecords(saving: [good, bad])
        guard case .failure(let goodError) = result.saveResults[0].result, case .failure(let badError) = result.saveResults[1].result else {
            Issue.record("both records should fail")
            return
        }
        #expect(goodError.code == .batchRequestFailed)
        #expect(badError.code == .invalidArguments)
        #expect(result.partialFailure?.code == .partialFailure)
        #expect(result.partialFailure?.partialErrors.count == 2)
        let fetched = try db.records(for: [RecordID(recordName: "good", zoneID: zone)])
        if case .failure(let error) = fetched[0].result { #expect(error.code == .unknownItem) } else { Issue.record("good must not be saved") }

        let nonAtomic = try db.modifyRecords(saving: [good, bad], atomically: false)
        #expect((try? nonAtomic.saveResults[0].result.get()) != nil)
        #expect((try? nonAtomic.saveResults[1].result.get()) == nil)
    }

    @Test func defaultZoneSavesEachRecordOnItsOwn() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try db.save(Record(recordType: "T", recordID: RecordID(recordName: "typed"), fields: ["n": .int64(1)]))
        let result = try db.modifyRecords(saving: [
            Record(recordType: "T", recordID: RecordID(recordName: "ok"), fields: ["n": .int64(2)]),
            Record(recordType: "T", recordID: RecordID(recordName: "ko"), fields: ["n": .double(2)]),
        ])
        #expect((try? result.saveResults[0].result.get()) != nil)
        #expect(result.partialFailure?.partialErrors.keys.sorted() == ["ko"])
    }

    @Test func deleteCascadesThroughDeleteSelfReferences() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Tree")
        let db = temp.privateDB
        func id(_ name: String) -> RecordID { RecordID(recordName: name, zoneID: zone) }
        _ = try db.modifyRecords(saving: [
            Record(recordType: "Node", recordID: id("root")),
            Record(recordType: "Node", recordID: id("child"), fields: ["up": .reference(Reference(recordName: "root", action: .deleteSelf))]),
            Record(recordType: "Node", recordID: id("grandchild"), fields: ["ups": .list(.reference, [.reference(Reference(recordName: "child", action: .deleteSelf))])]),
            Record(recordType: "Node", recordID: id("bystander"), fields: ["up": .reference(Reference(recordName: "root", action: .none))]),
        ]).savedRecords()
        let result = try db.modifyRecords(deleting: [id("root")])
        #expect(result.partialFailure == nil)
        #expect(Set(result.cascadeDeletedRecordIDs.map(\.recordName)) == ["child", "grandchild"])
        // The records as they were, each after the record it points at (so saving them back in
        // order puts back the tree).
        #expect(result.cascadeDeletedRecords.map(\.recordName) == ["child", "grandchild"])
        #expect(result.cascadeDeletedRecords.first?["up"] == .reference(Reference(recordName: "root", action: .deleteSelf)))
        let fetched = try db.records(for: [id("root"), id("child"), id("grandchild"), id("bystander")])
        #expect(fetched.map { (try? $0.result.get()) != nil } == [false, false, false, true])
        let changes = try db.recordZoneChanges(inZoneWith: zone)
        let deleted = changes.changes.compactMap { change -> String? in
            if case .deleted(let recordID, let type) = change, type == "Node" { return recordID.recordName }
            return nil
        }
        #expect(Set(deleted) == ["root", "child", "grandchild"])
    }

    @Test func limitsAreCloudKits() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let tooMany = (0...400).map { Record(recordType: "T", recordID: RecordID(recordName: "r\($0)")) }
        let batchError = #expect(throws: CloudKitError.self) { try db.modifyRecords(saving: tooMany) }
        #expect(batchError?.code == .limitExceeded)
        #expect(try db.modifyRecords(saving: Array(tooMany.prefix(400))).partialFailure == nil)

        let huge = Record(recordType: "T", recordID: RecordID(recordName: "huge"), fields: ["b": .bytes(Data(count: 1_100_000))])
        let sizeError = #expect(throws: CloudKitError.self) { try db.save(huge) }
        #expect(sizeError?.code == .limitExceeded)
    }

    @Test func refusesBadNamesAndValues() throws {
        let db = try TemporaryStore().privateDB
        let cases: [Record] = [
            Record(recordType: "T", recordID: RecordID(recordName: "é"), fields: [:]),
            Record(recordType: "T", recordID: RecordID(recordName: String(repeating: "x", count: 256)), fields: [:]),
            Record(recordType: "1T", recordID: RecordID(recordName: "a"), fields: [:]),
            Record(recordType: "T", recordID: RecordID(recordName: "b"), fields: ["bad-name": .int64(1)]),
            Record(recordType: "T", recordID: RecordID(recordName: "c"), fields: ["d": .double(.nan)]),
            Record(recordType: "T", recordID: RecordID(recordName: "e"), fields: ["l": .location(Location(latitude: 91, longitude: 0))]),
            Record(recordType: "T", recordID: RecordID(recordName: "f"), fields: ["l": .list(.int64, [.string("x")])]),
            Record(recordType: "T", recordID: RecordID(recordName: "g"), fields: ["a": .asset(Asset(fileChecksum: "00", size: 1))]),
        ]
        for record in cases {
            let error = #expect(throws: CloudKitError.self) { try db.save(record) }
            #expect(error?.code == .invalidArguments || error?.code == .assetFileNotFound, "\(record.recordName)")
        }
    }

    @Test func aRecordWithSeveralProblemsReportsTheFirstFieldByName() throws {
        let db = try TemporaryStore().privateDB
        try db.save(Record(recordType: "T", recordID: RecordID(recordName: "base"), fields: ["m": .int64(1)]))
        // Problems of every kind, under names whose dictionary order varies from run to run.
        for count in [3, 12, 40] {
            var fields: [String: FieldValue] = ["m": .string("not an int")]
            for index in 0..<count {
                fields["z\(index)"] = index % 2 == 0 ? .double(.infinity) : .location(Location(latitude: 100, longitude: 0))
            }
            fields["n-bad"] = .int64(1)
            let error = #expect(throws: CloudKitError.self) {
                try db.save(Record(recordType: "T", recordID: RecordID(recordName: "r\(count)"), fields: fields))
            }
            #expect(error?.message.contains("'m'") == true, "\(error?.message ?? "")")
            fields["m"] = nil
            let next = #expect(throws: CloudKitError.self) {
                try db.save(Record(recordType: "T", recordID: RecordID(recordName: "s\(count)"), fields: fields))
            }
            #expect(next?.message.contains("'n-bad'") == true, "\(next?.message ?? "")")
        }
    }

    @Test func unknownZoneAndMissingRecords() throws {
        let db = try TemporaryStore().privateDB
        let missingZone = RecordID(recordName: "x", zoneID: ZoneID(zoneName: "Nowhere"))
        let saveError = #expect(throws: CloudKitError.self) { try db.save(Record(recordType: "T", recordID: missingZone)) }
        #expect(saveError?.code == .zoneNotFound)
        let deleteError = #expect(throws: CloudKitError.self) { try db.deleteRecord(withID: RecordID(recordName: "ghost")) }
        #expect(deleteError?.code == .unknownItem)
    }
}
