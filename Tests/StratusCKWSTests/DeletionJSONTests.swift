import Testing
import StratusCloud
import StratusCKWS

/// Deletions byte for byte as the server and the command line wrote them before the codec, and
/// read back by the document reader as the deletions they are.
@Suite struct DeletionJSONTests {
    @Test func aRecordDeletionNamesTheRecordAndItsTypeWhenKnown() {
        #expect(JSONWriter.string(DeletionJSON.record("N9")) == #"{"recordName":"N9","deleted":true}"#)
        #expect(JSONWriter.string(DeletionJSON.record("N9", recordType: "Note")) == #"{"recordName":"N9","recordType":"Note","deleted":true}"#)
        #expect(JSONWriter.string(DeletionJSON.record("child", adding: [("cascade", .bool(true))]))
            == #"{"recordName":"child","deleted":true,"cascade":true}"#)
    }

    @Test func zoneAndSubscriptionDeletionsNameTheirItem() {
        let zone = ZoneID(zoneName: "Notes")
        #expect(JSONWriter.string(DeletionJSON.zone(zone, owner: "_me"))
            == #"{"zoneID":{"zoneName":"Notes","ownerRecordName":"_me","zoneType":"REGULAR_CUSTOM_ZONE"},"deleted":true}"#)
        #expect(JSONWriter.string(DeletionJSON.zone(zone, owner: "_me", adding: [("purged", .bool(true))]))
            == #"{"zoneID":{"zoneName":"Notes","ownerRecordName":"_me","zoneType":"REGULAR_CUSTOM_ZONE"},"deleted":true,"purged":true}"#)
        #expect(JSONWriter.string(DeletionJSON.subscription("S1")) == #"{"subscriptionID":"S1","deleted":true}"#)
        #expect(JSONWriter.string(DeletionJSON.encode([("zoneName", .string("Notes"))])) == #"{"zoneName":"Notes","deleted":true}"#)
        #expect(JSONWriter.string(DeletionJSON.encode([])) == #"{"deleted":true}"#)
    }

    @Test func aWrittenRecordDeletionReadsBackAsADeletion() throws {
        let zone = ZoneID(zoneName: "Notes")
        let text = JSONWriter.string(.array([DeletionJSON.record("N9", recordType: "Note"), DeletionJSON.record("N8")]))
        let entries = try RecordDocument.entries(in: try JSONParser.parse(text), zoneID: zone)
        let deleted = entries.compactMap { entry -> String? in
            guard case .delete(let recordID, let type) = entry else { return nil }
            return "\(recordID.recordName)/\(recordID.zoneID.zoneName)/\(type ?? "-")"
        }
        #expect(deleted == ["N9/Notes/Note", "N8/Notes/-"])
    }
}
