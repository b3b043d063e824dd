import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusCloud
import StratusCKWS

@Suite struct RecordDocumentTests {
    private let iCloudOwner = "_b321aaaaaaaaaaaaaaaaaaaaaaaaaaaa"

    private func entries(_ text: String, zoneID: ZoneID = .default) throws -> [RecordDocument.Entry] {
        try RecordDocument.entries(in: try JSONParser.parse(text), zoneID: zoneID)
    }

    private func saved(_ entries: [RecordDocument.Entry]) -> [Record] {
        entries.compactMap { if case .save(let record) = $0 { return record } else { return nil } }
    }

    /// A document read to save marks every field it sets (and every field it clears) as changed,
    /// for the changed-keys policy; read to restore, the same records carry the same fields and,
    /// like fetched records, no changed keys.
    @Test func restoredRecordsHaveTheirFieldsAndNoChangedKeys() throws {
        let json = try JSONParser.parse("""
            [{"recordName": "A1", "recordType": "Trip", "fields": {"title": {"value": "Lisbon"}, "nights": {"value": 3}, "gone": null}},
             {"recordName": "A2", "recordType": "Trip", "fields": {}}]
            """)
        let saving = saved(try RecordDocument.entries(in: json, zoneID: .default))
        let restoring = saved(try RecordDocument.entries(in: json, zoneID: .default, restoring: true))
        #expect(saving.map(\.changedKeys) == [["title", "nights", "gone"], []])
        #expect(restoring.map(\.changedKeys) == [[], []])
        #expect(restoring.map(\.fields) == saving.map(\.fields))
        #expect(restoring.map(\.fields) == [["title": .string("Lisbon"), "nights": .int64(3)], [:]])
        #expect(restoring.map(\.recordID) == saving.map(\.recordID))
    }

    @Test func aQueryResponseLandsInTheActingUsersZones() throws {
        let text = """
            {"records": [
              {"recordName": "A1", "recordType": "Trip", "fields": {"title": {"value": "Lisbon", "type": "STRING"}},
               "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "\(iCloudOwner)", "zoneType": "DEFAULT_ZONE"}},
              {"recordName": "A2", "recordType": "Trip", "fields": {"title": {"value": "Oslo"}},
               "zoneID": {"zoneName": "Trips", "ownerName": "\(iCloudOwner)"}},
              {"recordName": "gone", "reason": "Record not found", "serverErrorCode": "NOT_FOUND"}
            ], "continuationMarker": null}
            """
        let result = try entries(text)
        let records = saved(result)
        #expect(records.map(\.recordID) == [RecordID(recordName: "A1", zoneID: .default),
                                            RecordID(recordName: "A2", zoneID: ZoneID(zoneName: "Trips"))])
        guard case .skipped(let name, let reason)? = result.last else { Issue.record("no skipped entry in \(result)"); return }
        #expect(name == "gone")
        #expect(reason == "NOT_FOUND: Record not found")
    }

    @Test func anOwnerMappingPicksTheOwner() throws {
        let json = try JSONParser.parse(#"{"recordName": "A", "recordType": "T", "zoneID": {"zoneName": "Z", "ownerRecordName": "_real"}}"#)
        let result = try RecordDocument.entries(in: json, zoneID: .default, owners: { $0 == "_real" ? "_alias" : "_other" })
        #expect(saved(result).first?.recordID.zoneID == ZoneID(zoneName: "Z", ownerName: "_alias"))
    }

    @Test func aChangesResponseCarriesZonesSavesAndDeletions() throws {
        let text = """
            {"zones": [{"zoneID": {"zoneName": "Trips", "ownerRecordName": "\(iCloudOwner)"},
              "records": [{"recordName": "T1", "recordType": "Trip", "fields": {"n": {"value": 3}}},
                          {"recordName": "T0", "recordType": "Trip", "deleted": true}],
              "syncToken": "x", "moreComing": false}]}
            """
        let result = try entries(text)
        #expect(saved(result).map(\.recordID) == [RecordID(recordName: "T1", zoneID: ZoneID(zoneName: "Trips"))])
        guard case .delete(let recordID, let type)? = result.last else { Issue.record("no deletion in \(result)"); return }
        #expect(recordID == RecordID(recordName: "T0", zoneID: ZoneID(zoneName: "Trips")))
        #expect(type == "Trip")
    }

    @Test func aModifyRequestSavesAndDeletesInItsZone() throws {
        let text = """
            {"zoneID": {"zoneName": "Trips"}, "operations": [
              {"operationType": "create", "record": {"recordName": "a", "recordType": "Trip"}},
              {"operationType": "forceReplace", "record": {"recordName": "b", "recordType": "Trip"}},
              {"operationType": "forceDelete", "record": {"recordName": "c"}}]}
            """
        let result = try entries(text)
        #expect(saved(result).map(\.recordName) == ["a", "b"])
        #expect(saved(result).allSatisfy { $0.recordID.zoneID == ZoneID(zoneName: "Trips") })
        guard case .delete(let recordID, _)? = result.last else { Issue.record("no deletion in \(result)"); return }
        #expect(recordID.recordName == "c")
    }

    @Test func oneRecordAndArraysStillRead() throws {
        #expect(saved(try entries(#"{"recordName": "a", "recordType": "T"}"#)).count == 1)
        #expect(saved(try entries(#"[{"recordName": "a", "recordType": "T"}, {"recordName": "b", "recordType": "T"}]"#)).count == 2)
    }

    @Test func cktoolTypesEpochMillisecondsAndSystemObjects() throws {
        let text = """
            {"recordName": "a", "recordType": "T", "fields": {
               "s": {"value": "x", "type": "stringType"}, "n": {"value": 4, "type": "int64Type"},
               "d": {"value": 2.5, "type": "doubleType"}, "t": {"value": 1714521600000, "type": "timestampType"},
               "l": {"value": [1, 2], "type": "int64ListType"}, "e": {"value": "AAE=", "type": "encryptedBytesType", "isEncrypted": true},
               "when": {"value": 1714521600000, "type": "TIMESTAMP"}},
             "created": {"timestamp": 1714521600000, "userRecordName": "_u", "deviceID": "2"},
             "modified": {"timestamp": 1714521601000, "userRecordName": "_v", "deviceID": "2"}}
            """
        let record = try #require(saved(try entries(text)).first)
        #expect(record["s"] == .string("x"))
        #expect(record["n"] == .int64(4))
        #expect(record["d"] == .double(2.5))
        #expect(record["t"] == .timestamp(Date(timeIntervalSince1970: 1_714_521_600)))
        #expect(record["l"] == .list(.int64, [.int64(1), .int64(2)]))
        #expect(record["e"] == .bytes(Data([0, 1])))
        #expect(record.creationDate == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(record.lastModifiedUserRecordName == "_v")
    }

    @Test func errorsNameTheEntry() throws {
        #expect {
            try entries(#"{"records": [{"recordName": "a", "recordType": "T"}, {"recordName": "b", "recordType": "T", "fields": {"x": {"value": "1", "type": "NOPE"}}}]}"#)
        } throws: { error in
            (error as? RecordJSON.DecodingError)?.path == "records[1].fields.x.type"
        }
        #expect {
            try entries(#"{"operations": [{"operationType": "explode", "record": {"recordName": "a"}}]}"#)
        } throws: { error in
            (error as? RecordJSON.DecodingError)?.description.hasPrefix("operations[0].operationType: unknown operation 'explode'") == true
        }
        #expect(throws: RecordJSON.DecodingError.self) { try entries(#"{"records": {"recordName": "a"}}"#) }
        #expect(throws: RecordJSON.DecodingError.self) { try entries(#"{"records": [{"deleted": true}]}"#) }
    }
}
