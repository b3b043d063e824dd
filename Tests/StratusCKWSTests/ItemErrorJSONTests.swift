import Testing
import StratusCloud
import StratusCKWS

/// Per-item errors in both layouts, byte for byte as the server (`records/modify`, lookups) and
/// the command line (`save`, `fetch`, `delete --json`) wrote them before the codec.
@Suite struct ItemErrorJSONTests {
    private let server = Record(recordType: "Note", recordID: RecordID(recordName: "N0"))
    private let serverJSON = #"{"recordName":"N0","recordType":"Note","zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"},"fields":{}}"#

    @Test func theServerWritesTheReasonFirstAndWholeSecondsRoundedUp() {
        let conflict = CloudKitError(.serverRecordChanged, "oplock error", serverRecord: server, retryAfter: 2.5)
        #expect(JSONWriter.string(ItemErrorJSON.encode(conflict, item: [("recordName", .string("N0"))], layout: .reasonFirst))
            == #"{"recordName":"N0","reason":"oplock error","serverErrorCode":"CONFLICT","retryAfter":3,"serverRecord":"# + serverJSON + "}")
        let missing = CloudKitError(.zoneNotFound, "Zone 'Gone' does not exist")
        #expect(JSONWriter.string(ItemErrorJSON.encode(missing, item: [("zoneID", .object([("zoneName", .string("Gone"))]))], layout: .reasonFirst))
            == #"{"zoneID":{"zoneName":"Gone"},"reason":"Zone 'Gone' does not exist","serverErrorCode":"ZONE_NOT_FOUND"}"#)
    }

    @Test func theCommandLineWritesTheCodeFirstWithCloudKitsName() {
        let conflict = CloudKitError(.serverRecordChanged, "oplock error", serverRecord: server, retryAfter: 2.5)
        #expect(JSONWriter.string(ItemErrorJSON.encode(conflict, item: [("recordName", .string("N0"))], layout: .codeFirst))
            == #"{"recordName":"N0","serverErrorCode":"CONFLICT","ckErrorCode":"serverRecordChanged","reason":"oplock error","serverRecord":"#
            + serverJSON + #","retryAfter":2.5}"#)
        let busy = CloudKitError(.zoneBusy, "try later", retryAfter: 7)
        #expect(JSONWriter.string(ItemErrorJSON.encode(busy, item: [("recordName", .string("a"))], layout: .codeFirst))
            == #"{"recordName":"a","serverErrorCode":"TRY_AGAIN_LATER","ckErrorCode":"zoneBusy","reason":"try later","retryAfter":7.0}"#)
    }

    @Test func partsWithoutAnErrorKeepTheirItemMembersInOrder() {
        let asset = ItemErrorJSON.encode(item: [("recordName", .string("a")), ("fieldName", .string("photo"))], serverErrorCode: "BAD_REQUEST",
                                         reason: "no asset", layout: .codeFirst)
        #expect(JSONWriter.string(asset) == #"{"recordName":"a","fieldName":"photo","serverErrorCode":"BAD_REQUEST","reason":"no asset"}"#)
        #expect(ItemErrorJSON.wholeSeconds(0.2) == 1 && ItemErrorJSON.wholeSeconds(4) == 4 && ItemErrorJSON.wholeSeconds(nil) == nil)
    }

    /// A lookup's answer saved as a document: the error entry is skipped with its code and reason.
    @Test func aWrittenErrorReadsBackAsASkippedEntry() throws {
        for layout in [ItemErrorJSON.Layout.reasonFirst, .codeFirst] {
            let error = ItemErrorJSON.encode(CloudKitError(.unknownItem, "Record not found"), item: [("recordName", .string("gone"))], layout: layout)
            let entries = try RecordDocument.entries(in: try JSONParser.parse(JSONWriter.string(.array([error]))), zoneID: .default)
            guard entries.count == 1, case .skipped(let name, let reason) = entries[0] else { Issue.record("not skipped: \(entries)"); continue }
            #expect(name == "gone" && reason == "NOT_FOUND: Record not found")
        }
    }
}
