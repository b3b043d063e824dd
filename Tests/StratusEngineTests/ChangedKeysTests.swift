import Foundation
import Testing
import StratusModel
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// Each change keeps which fields it set or removed, and playback says them.
@Suite(.onEveryBackend) struct ChangedKeysTests {
    @Test func playbackSaysWhichFieldsTheLastChangeTouched() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try db.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone),
                           fields: ["title": .string("東京"), "body": .string("a"), "stars": .int64(1)]))
        let afterCreate = try db.currentToken(for: zone)
        #expect(try db.recordZoneChanges(inZoneWith: zone, includingChangedKeys: true).changedKeys["n1"] == ["body", "stars", "title"], "a new record: all its fields")

        var note = try db.record(for: RecordID(recordName: "n1", zoneID: zone))
        note["body"] = .string("b ✨")
        note["stars"] = nil
        note["title"] = .string("東京")  // set, but to the same value
        try db.save(note)
        let page = try db.recordZoneChanges(inZoneWith: zone, since: afterCreate, includingChangedKeys: true)
        #expect(page.changes.map(\.recordID.recordName) == ["n1"])
        #expect(page.changedKeys["n1"] == ["body", "stars"], "what changed value or went, not what was merely set again")

        // A record restored by an import has no known changed keys.
        var restored = Record(recordType: "Note", recordID: RecordID(recordName: "n2", zoneID: zone), fields: ["title": .string("x")])
        restored.recordChangeTag = "abc"
        _ = try db.importRecords([restored])
        #expect(try db.recordZoneChanges(inZoneWith: zone, includingChangedKeys: true).changedKeys["n2"] == nil)
        #expect(try db.recordZoneChanges(inZoneWith: zone).changedKeys.isEmpty, "only when asked for")
    }

    @Test func aShareWhoseParticipantsChangedShowsNoChangedField() throws {
        let fixture = try SharedStoreFixture()
        let bob = fixture.database(fixture.bob)
        let token = try bob.currentToken(for: fixture.sharedTrips)
        try fixture.database(fixture.alice).addParticipant(fixture.dave.recordName, permission: .readOnly, toShare: fixture.share.url)
        let page = try bob.recordZoneChanges(inZoneWith: fixture.sharedTrips, since: token, includingChangedKeys: true)
        #expect(page.changes.map(\.recordID.recordName) == [fixture.share.recordID.recordName], "the share shows again when its participants change")
        #expect(page.changedKeys[fixture.share.recordID.recordName] == [])
    }
}
