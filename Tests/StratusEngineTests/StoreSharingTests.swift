import Foundation
import StratusCloud
import StratusCKWS
@testable import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct StoreSharingTests {
    @Test func twoStoreHandlesWriteAtOnceAndSeeEachOthersChanges() async throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Shared")
        let second = try temp.reopened()
        let first = temp.store
        async let one: Void = Task.detached {
            for index in 0..<50 {
                try first.database(.private).save(Record(recordType: "Item", recordID: RecordID(recordName: "a\(index)", zoneID: zone)))
            }
        }.value
        async let two: Void = Task.detached {
            for index in 0..<50 {
                try second.database(.private).save(Record(recordType: "Item", recordID: RecordID(recordName: "b\(index)", zoneID: zone)))
            }
        }.value
        _ = try await (one, two)
        let changes = try temp.privateDB.recordZoneChanges(inZoneWith: zone, resultsLimit: 1000)
        #expect(changes.changes.count == 100)
        #expect(try second.database(.private).currentToken(for: zone) == (try temp.privateDB.currentToken(for: zone)))
    }

    @Test func actingUserBecomesCreatorAndModifier() throws {
        let temp = try TemporaryStore()
        // Any signed-in user may write Docs in the public database.
        _ = try temp.store.importSchema(text: #"DEFINE SCHEMA RECORD TYPE Doc (v INT64, GRANT READ, CREATE, WRITE TO "_icloud");"#)
        let alice = temp.store.database(.public, user: "_a11ce000000000000000000000000000")
        let bob = temp.store.database(.public, user: "_b0b00000000000000000000000000000")
        var record = try alice.save(Record(recordType: "Doc", recordID: RecordID(recordName: "d"), fields: ["v": .int64(1)]))
        #expect(record.creatorUserRecordName == "_a11ce000000000000000000000000000")
        record["v"] = .int64(2)
        let edited = try bob.save(record)
        #expect(edited.creatorUserRecordName == "_a11ce000000000000000000000000000")
        #expect(edited.lastModifiedUserRecordName == "_b0b00000000000000000000000000000")
        #expect(try temp.store.database(.public).record(for: RecordID(recordName: "d")).lastModifiedUserRecordName == "_b0b00000000000000000000000000000")
    }

    @Test func fetchReportsProgressPerRecord() throws {
        let temp = try TemporaryStore()
        _ = try temp.privateDB.modifyRecords(saving: (0..<4).map { Record(recordType: "T", recordID: RecordID(recordName: "r\($0)")) }).savedRecords()
        nonisolated(unsafe) var seen: [(String, Double)] = []
        let results = try temp.privateDB.records(for: ["r0", "r1", "nope", "r3"].map { RecordID(recordName: $0) }) { id, fraction in
            seen.append((id.recordName, fraction))
        }
        #expect(seen.map(\.0) == ["r0", "r1", "nope", "r3"])
        #expect(seen.map(\.1) == [0.25, 0.5, 0.75, 1.0])
        #expect(results.map { (try? $0.result.get()) != nil } == [true, true, false, true])
    }

    @Test func jsonRoundTripKeepsEveryType() throws {
        let temp = try TemporaryStore()
        let asset = try temp.store.putAsset(Data([1, 2, 3]))
        var record = Record(recordType: "All", recordID: RecordID(recordName: "x"))
        record["s"] = .string("a \"quoted\" 東京 \n line")
        record["i"] = .int64(Int64.min)
        record["d"] = .double(0.1)
        record["whole"] = .double(2)
        record["t"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123))
        record["b"] = .bytes(Data([0, 255]))
        record["a"] = .asset(asset)
        record["r"] = .reference(Reference(recordName: "y", action: .deleteSelf))
        record["l"] = .location(Location(latitude: 1.5, longitude: -2.25, altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, course: 6, speed: 7,
                                         timestamp: Date(timeIntervalSince1970: 1_600_000_000)))
        record["list"] = .list(.timestamp, [.timestamp(Date(timeIntervalSince1970: 1))])
        let saved = try temp.privateDB.save(record)
        let text = JSONWriter.string(RecordJSON.encode(saved))
        let decoded = try RecordJSON.decode(try JSONParser.parse(text), zoneID: .default)
        #expect(decoded.fields == saved.fields)
        #expect(decoded.recordChangeTag == saved.recordChangeTag)
        let malformed = #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("{\"a\": [1, 2,]}") }
        #expect(malformed?.line == 1 && malformed?.column == 13)
        let wrongType = #expect(throws: RecordJSON.DecodingError.self) {
            try RecordJSON.decode(try JSONParser.parse(#"{"recordType": "T", "fields": {"n": {"value": "x", "type": "INT64"}}}"#), zoneID: .default)
        }
        #expect(wrongType?.path == "fields.n.value")
    }
}
