import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

/// `Store.readingOneSnapshot`: what a read-only server request runs in, so its reads (the
/// store's environment, the records, the caller's shares, the types) see one snapshot.
@Suite(.onEveryBackend) struct OneSnapshotReadTests {
    private static func note(_ name: String, _ text: String, in zoneID: ZoneID) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zoneID), fields: ["title": .string(text)])
    }

    private static func title(_ name: String, in zoneID: ZoneID, of database: CloudDatabase) throws -> String? {
        guard case .success(let record)? = try database.records(for: [RecordID(recordName: name, zoneID: zoneID)]).first?.result,
              case .string(let text)? = record.fields["title"] else { return nil }
        return text
    }

    /// A save by another process, committed between two reads of the body, is not seen by the
    /// second: both come from the snapshot the body began with. After the body it is seen.
    @Test func everyReadOfTheBodySeesTheSnapshotItBeganWith() throws {
        let temp = try TemporaryStore()
        let zoneID = try temp.zone("Notes")
        try temp.privateDB.save(Self.note("a", "first", in: zoneID))
        let otherProcess = try temp.reopened()
        let titles = try temp.store.readingOneSnapshot { () throws -> [String?] in
            let before = try Self.title("a", in: zoneID, of: temp.privateDB)
            try otherProcess.database(.private).save(Self.note("b", "second", in: zoneID))
            return [before, try Self.title("b", in: zoneID, of: temp.privateDB)]
        }
        #expect(titles == ["first", nil])
        #expect(try Self.title("b", in: zoneID, of: temp.privateDB) == "second")
    }

    /// A write inside the body (a fault firing, a user met for the first time) commits in a
    /// transaction of its own: it is kept, and reads after the body see it.
    @Test func aWriteInsideTheBodyCommitsOnItsOwn() throws {
        let temp = try TemporaryStore()
        let zoneID = try temp.zone("Notes")
        _ = try temp.store.readingOneSnapshot {
            try temp.privateDB.save(Self.note("c", "inside", in: zoneID))
        }
        #expect(try Self.title("c", in: zoneID, of: temp.privateDB) == "inside")
        #expect(try Self.title("c", in: zoneID, of: temp.reopened().database(.private)) == "inside")
    }

    /// Another store's reads in the body, and a nested body, are not confused with it.
    @Test func aNestedBodyAndAnotherStoreReadOnTheirOwnTerms() throws {
        let temp = try TemporaryStore()
        let zoneID = try temp.zone("Notes")
        try temp.privateDB.save(Self.note("d", "one", in: zoneID))
        let other = try TemporaryStore()
        let otherZone = try other.zone("Notes")
        let seen = try temp.store.readingOneSnapshot { () throws -> [String?] in
            try other.privateDB.save(Self.note("e", "elsewhere", in: otherZone))
            let nested = try temp.store.readingOneSnapshot { try Self.title("d", in: zoneID, of: temp.privateDB) }
            return [nested, try Self.title("e", in: otherZone, of: other.privateDB)]
        }
        #expect(seen == ["one", "elsewhere"])
    }
}
