import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

@Suite(.onEveryBackend) struct PlaybackOrderTests {
    private func names(_ page: ZoneChangesPage) -> [String] { page.playedNames }

    /// Children saved before their parents, then a deletion: each order puts them as it says.
    private func page() throws -> (TemporaryStore, ZoneChangesPage) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Family")
        let db = temp.privateDB
        var child = Record(recordType: "Item", recordID: RecordID(recordName: "child", zoneID: zone))
        child.parent = Reference(recordName: "parent")
        var grandchild = Record(recordType: "Item", recordID: RecordID(recordName: "grandchild", zoneID: zone))
        grandchild["owner"] = .reference(Reference(recordName: "child"))
        let parent = Record(recordType: "Item", recordID: RecordID(recordName: "parent", zoneID: zone))
        let loose = Record(recordType: "Item", recordID: RecordID(recordName: "loose", zoneID: zone))
        let gone = Record(recordType: "Item", recordID: RecordID(recordName: "gone", zoneID: zone))
        _ = try db.modifyRecords(saving: [gone]).savedRecords()
        _ = try db.modifyRecords(saving: [grandchild]).savedRecords()
        _ = try db.modifyRecords(saving: [child]).savedRecords()
        _ = try db.modifyRecords(saving: [loose]).savedRecords()
        _ = try db.modifyRecords(saving: [parent]).savedRecords()
        _ = try db.modifyRecords(deleting: [gone.recordID])
        return (temp, try db.recordZoneChanges(inZoneWith: zone))
    }

    @Test func parentsFirstPutsEveryRecordAfterWhatItPointsAt() throws {
        let (_, page) = try page()
        #expect(names(page) == ["grandchild", "child", "loose", "parent", "-gone"])
        #expect(names(page.ordered(.sequence)) == names(page))
        let parents = names(page.ordered(.parentsFirst))
        #expect(parents.firstIndex(of: "parent")! < parents.firstIndex(of: "child")!)
        #expect(parents.firstIndex(of: "child")! < parents.firstIndex(of: "grandchild")!)
        #expect(parents.last == "-gone")
        let children = names(page.ordered(.childrenFirst))
        #expect(children.first == "-gone")
        #expect(children.firstIndex(of: "grandchild")! < children.firstIndex(of: "child")!)
        #expect(children.firstIndex(of: "child")! < children.firstIndex(of: "parent")!)
        #expect(page.ordered(.parentsFirst).changeToken == page.changeToken)
    }

    @Test func shufflingIsASeededPermutation() throws {
        let (_, page) = try page()
        let one = names(page.ordered(.shuffled, seed: 7)), again = names(page.ordered(.shuffled, seed: 7))
        #expect(one == again)
        #expect(Set(one) == Set(names(page)))
        let orders = Set((0..<20).map { names(page.ordered(.shuffled, seed: UInt64($0))) })
        #expect(orders.count > 1)
    }
}

@Suite(.onEveryBackend) struct PlaybackUntilTests {
    @Test func changesBetweenTwoTokens() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        func save(_ name: String) throws { _ = try db.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))]).savedRecords() }
        try save("a")
        let first = try db.currentToken(for: zone)
        try save("b")
        _ = try db.modifyRecords(deleting: [RecordID(recordName: "a", zoneID: zone)])
        let second = try db.currentToken(for: zone)
        try save("c")
        let between = try db.recordZoneChanges(inZoneWith: zone, since: first, until: second)
        #expect(between.changes.map(\.recordID.recordName) == ["b", "a"])
        #expect(between.moreComing == false)
        #expect(between.changeToken == second)
        let paged = try db.recordZoneChanges(inZoneWith: zone, since: first, until: second, resultsLimit: 1)
        #expect(paged.changes.map(\.recordID.recordName) == ["b"])
        #expect(paged.moreComing)
        #expect(throws: CloudKitError.self) { try db.recordZoneChanges(inZoneWith: zone, since: second, until: first) }
        #expect(try db.recordZoneChanges(inZoneWith: zone, until: first).changes.map(\.recordID.recordName) == [])
    }
}
