import Testing
import StratusCloud
import StratusCKWS

/// Zones and change pages as `zones/list`, `changes/*` and the command line's `zones`,
/// `changes` and `token` wrote them before the codec.
@Suite struct ZoneAndPageJSONTests {
    @Test func aZoneForAResponseCarriesItsTypeAndTheActingOwner() throws {
        let zone = RecordZone(zoneID: .default, currentToken: "AQ", recordCount: 4)
        let text = JSONWriter.string(ZoneJSON.encode(zone, owner: "_me"))
        #expect(text == #"{"zoneID":{"zoneName":"_defaultZone","ownerRecordName":"_me","zoneType":"DEFAULT_ZONE"},"syncToken":"AQ","atomic":true}"#)
        #expect(try JSONParser.parse(text) == ZoneJSON.encode(zone, owner: "_me"))
    }

    @Test func aZoneWithTheStoresNamesCarriesItsCountAndWhetherItIsAtomic() {
        let custom = RecordZone(zoneID: ZoneID(zoneName: "Notes", ownerName: "_other"), currentToken: "AQ", recordCount: 12)
        #expect(JSONWriter.string(ZoneJSON.encode(custom, owner: nil))
            == #"{"zoneID":{"zoneName":"Notes","ownerRecordName":"_other"},"syncToken":"AQ","atomic":true,"recordCount":12}"#)
        let standard = RecordZone(zoneID: .default, currentToken: "AQ", recordCount: 0)
        #expect(JSONWriter.string(ZoneJSON.encode(standard, owner: nil))
            == #"{"zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"},"syncToken":"AQ","atomic":false,"recordCount":0}"#)
    }

    @Test func aPageEndsWithItsTokenAndWhetherMoreCome() throws {
        let page = ChangePageJSON.encode([("records", .array([DeletionJSON.record("a")]))], syncToken: "T1", moreComing: true)
        #expect(JSONWriter.string(page) == #"{"records":[{"recordName":"a","deleted":true}],"syncToken":"T1","moreComing":true}"#)
        #expect(try JSONParser.parse(JSONWriter.string(page)) == page)
        #expect(JSONWriter.string(ChangePageJSON.encode([("zones", .array([]))], syncToken: "T2", moreComing: false, alsoAs: ["metaSyncToken"]))
            == #"{"zones":[],"syncToken":"T2","moreComing":false,"metaSyncToken":"T2"}"#)
        #expect(JSONWriter.string(ChangePageJSON.encode([], syncToken: "T3", moreComing: nil)) == #"{"syncToken":"T3"}"#)
    }
}
