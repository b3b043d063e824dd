import Foundation
@testable import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

@Suite(.onEveryBackend) struct HistoryCompactionTests {
    private func note(_ name: String, _ value: Int64, zone: ZoneID) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["n"] = .int64(value)
        return record
    }

    private func names(_ page: ZoneChangesPage) -> [String] { page.playedNames }

    @Test func olderTokensExpireAndNewerOnesKeepWorking() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        _ = try db.modifyRecords(saving: [note("a", 1, zone: zone), note("b", 1, zone: zone)]).savedRecords()
        let early = try db.currentToken(for: zone)
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "b", zoneID: zone)])
        let middle = try db.currentToken(for: zone)
        _ = try db.modifyRecords(saving: [note("c", 1, zone: zone)]).savedRecords()
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "a", zoneID: zone)])

        let result = try db.compactHistory(inZoneWith: zone, before: middle)
        #expect(result.droppedDeletions == 1)
        #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: early) }
        do {
            _ = try db.recordZoneChanges(inZoneWith: zone, since: early)
        } catch let error as CloudKitError {
            #expect(error.code == .changeTokenExpired)
            #expect(error.message.contains("compacted"))
        }
        #expect(names(try db.recordZoneChanges(inZoneWith: zone, since: middle)) == ["c", "-a"])
        #expect(names(try db.recordZoneChanges(inZoneWith: zone, since: result.oldestValidToken)) == ["c", "-a"])
        // From no token: the current records, and only the deletions after the point.
        #expect(names(try db.recordZoneChanges(inZoneWith: zone)) == ["c", "-a"])
        #expect(try db.oldestValidToken(for: zone) == result.oldestValidToken)
        // Compacting never goes back.
        let again = try db.compactHistory(inZoneWith: zone, keeping: 100)
        #expect(again.compactedSequence == result.compactedSequence)
        #expect(throws: CloudKitError.self) { try db.compactHistory(inZoneWith: zone, before: early) }
    }

    @Test func keepingNChangesAndAZoneMadeAgain() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        for index in 0..<10 { _ = try db.modifyRecords(saving: [note("r\(index)", Int64(index), zone: zone)]).savedRecords() }
        for index in 0..<4 { _ = try db.modifyRecords(deleting: [RecordID(recordName: "r\(index)", zoneID: zone)]) }
        let current = try db.currentToken(for: zone)
        let result = try db.compactHistory(inZoneWith: zone, keeping: 2)
        #expect(result.droppedDeletions == 2)
        #expect(names(try db.recordZoneChanges(inZoneWith: zone, since: result.oldestValidToken)) == ["-r2", "-r3"])
        #expect(try db.recordZoneChanges(inZoneWith: zone, since: current).changes.isEmpty)
        // A zone deleted and made again starts a history of its own.
        try db.modifyRecordZones(deleting: [zone])
        try db.modifyRecordZones(saving: [zone])
        let fresh = try db.currentToken(for: zone)
        _ = try db.modifyRecords(saving: [note("x", 1, zone: zone)]).savedRecords()
        #expect(names(try db.recordZoneChanges(inZoneWith: zone, since: fresh)) == ["x"])
        #expect(throws: CloudKitError.self) { try db.compactHistory(inZoneWith: .default, keeping: 1) }
        #expect(throws: CloudKitError.self) { try db.compactHistory(inZoneWith: zone) }
    }
}

@Suite(.onEveryBackend) struct CompactedRefetchTests {
    /// Found by the sync lab's property test: after a compaction, a client fetching from no
    /// token in small pages got pages whose tokens were older than the compaction point, and
    /// the next page answered changeTokenExpired, for ever.
    @Test func aRefetchFromNoTokenPagesThroughACompactedZone() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        for index in 0..<6 {
            _ = try db.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "r\(index)", zoneID: zone), fields: ["n": .int64(Int64(index))])]).savedRecords()
        }
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "r0", zoneID: zone)])
        _ = try db.compactHistory(inZoneWith: zone, keeping: 1)
        var token: String?
        var names: [String] = []
        repeat {
            let page = try db.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: 1)
            names += page.playedNames
            token = page.changeToken
            if !page.moreComing { break }
        } while true
        #expect(names == ["r1", "r2", "r3", "r4", "r5", "-r0"])
        #expect(token == (try db.currentToken(for: zone)))

        // Compaction moving on in the middle of a refetch expires it: a deletion it needs may be gone.
        let first = try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 2)
        #expect(try db.recordZoneChanges(inZoneWith: zone, since: first.changeToken, resultsLimit: 2).changes.count == 2)
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "r4", zoneID: zone)])
        _ = try db.compactHistory(inZoneWith: zone, keeping: 0)
        do {
            _ = try db.recordZoneChanges(inZoneWith: zone, since: first.changeToken)
            Issue.record("a refetch token survived a later compaction")
        } catch let error as CloudKitError {
            #expect(error.code == .changeTokenExpired)
        }
    }
}
