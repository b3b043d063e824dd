import Foundation
@testable import StratusDashboard
import StratusCKWS
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// `Y` in the inspector copies the whole record as Web Services JSON: what `records/lookup`
/// answers, which decodes back to the same record.
@Suite struct InspectorCopyJSONTests {
    @Test func theCopiedJSONDecodesToTheRecordShown() throws {
        let harness = try Harness(recordCount: 40)
        harness.press(.enter)
        guard case .inspector(let inspector)? = harness.state.topModal else {
            Issue.record("no inspector: \(String(describing: harness.state.topModal))")
            return
        }
        harness.press(.char("Y"))
        let text = try #require(harness.copied.withLock { $0 }.last)
        let json = try JSONParser.parse(utf8: Array(text.utf8))
        let decoded = try RecordJSON.decode(json, zoneID: inspector.record.recordID.zoneID)
        #expect(decoded.recordName == inspector.record.recordName)
        #expect(decoded.recordType == inspector.record.recordType)
        #expect(decoded.recordChangeTag == inspector.record.recordChangeTag)
        #expect(decoded.fields == inspector.record.fields)
        #expect(decoded.creationDate == inspector.record.creationDate)
        #expect(text.contains("\n  \"recordName\""), "indented for reading")
        let status = try #require(harness.state.status)
        #expect(status.text == "Copied Trip \(inspector.record.recordName) as Web Services JSON (\(ViewKit.count(text.utf8.count, "byte"))).")
        #expect(KeyMap.action(for: .char("Y"), in: [.inspector]) == .copyRecord)
    }

    /// As Web Services names it to the user acting: their record name is the zone's owner.
    @Test func theZoneOwnerIsTheUserActing() throws {
        let harness = try Harness(recordCount: 20)
        let owner = try harness.store.caller(named: "owner")
        harness.state.acting = owner
        harness.press(.enter, .char("Y"))
        let text = try #require(harness.copied.withLock { $0 }.last)
        guard case .user(let name) = owner else { Issue.record("the owner is a user"); return }
        #expect(text.contains("\"ownerRecordName\": \"\(name)\""))
        #expect(!text.contains(ZoneID.defaultOwnerName))
    }
}
