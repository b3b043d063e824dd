import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// `writeInBulk`: batches checked and written as `modifyRecords` writes them, in few transactions.
@Suite struct BulkWriteTests {
    /// At a limit of 7 rows the held rows go to spill files and are merged in at each commit.
    @Test(arguments: [7, 1_000_000])
    func bulkBatchesAreWrittenAsModifyRecordsWritesThem(indexRowLimit: Int) throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let db = temp.privateDB
        let start = try db.currentToken(for: zone)
        let names = try db.writeInBulk(itemsPerTransaction: 250, indexRowLimit: indexRowLimit) { writer -> [String] in
            var saved: [String] = []
            for batch in 0..<5 {
                let records = (0..<100).map { index in
                    Record(recordType: "Item", recordID: RecordID(recordName: "item-\(batch * 100 + index)", zoneID: zone),
                           fields: ["n": .int64(Int64(index)), "title": .string("品 \(index) 📦")])
                }
                saved += try writer.modifyRecords(saving: records).savedRecords().map(\.recordName)
            }
            // A change tag checked as ever: a stale save fails on its own, inside the bulk.
            var stale = Record(recordType: "Item", recordID: RecordID(recordName: "item-0", zoneID: zone))
            stale["n"] = .int64(-1)
            let result = try writer.modifyRecords(saving: [stale], atomically: false)
            #expect(result.partialFailure?.partialErrors["item-0"]?.code == .serverRecordChanged)
            _ = try writer.modifyRecords(deleting: [RecordID(recordName: "item-1", zoneID: zone)])
            return saved
        }
        #expect(names.count == 500)
        let changes = try db.recordZoneChanges(inZoneWith: zone, since: start, resultsLimit: 1_000)
        #expect(changes.changes.count == 500, "499 records and the tombstone of item-1")
        let page = try db.records(matching: Query(recordType: "Item", predicateFormat: "title BEGINSWITH '品 7'"), inZoneWith: zone, resultsLimit: 100)
        #expect(page.records.count == 55, "品 7 and 品 70 to 品 79 in each of five batches")
        // New records' index rows were held back and written sorted; the delete in the same
        // transaction wrote them first, so it removed item-1's and left no row behind.
        let ones = try db.records(matching: Query(recordType: "Item", predicateFormat: "n == 1"), inZoneWith: zone, resultsLimit: 100)
        #expect(ones.records.map(\.recordName).sorted() == ["item-101", "item-201", "item-301", "item-401"])
        let orphans = try temp.store.read { db in
            try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value WHERE record_id NOT IN (SELECT id FROM record)") ?? -1
        }
        #expect(orphans == 0)
        let indexed = try temp.store.read { db in
            try Int.fetchOne(db.sqlite, sql: "SELECT count(DISTINCT record_id) FROM field_value WHERE zone_id = (SELECT id FROM zone WHERE name = 'Bulk')") ?? 0
        }
        #expect(indexed == 499, "every record left has its index rows")
    }

    /// A bulk write's spill file lives in the store's own folder (where the store and its WAL
    /// already grow, not a temporary folder that may be small or in memory), unlinked from the
    /// start: while it is open, the process holds it as a deleted file of that folder.
    @Test func theSpillFileIsAnUnlinkedFileInTheStoresFolder() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let folder = URL(fileURLWithPath: temp.path).deletingLastPathComponent().resolvingSymlinksInPath().path
        // Other tests running alongside have their own folders: only this one's is looked at.
        func spills() -> [String] { Self.openDeletedFiles().filter { $0.hasPrefix(folder + "/") } }
        #expect(spills().isEmpty)
        let during = try temp.privateDB.writeInBulk(itemsPerTransaction: 1_000, indexRowLimit: 7) { writer -> [String] in
            let records = (0..<50).map { index in
                Record(recordType: "Item", recordID: RecordID(recordName: "item-\(index)", zoneID: zone), fields: ["n": .int64(Int64(index))])
            }
            _ = try writer.modifyRecords(saving: records).savedRecords()
            return spills()
        }
        #expect(during.count == 1, "one spill file, in the store's folder, while the transaction holds its rows")
        #expect(spills().isEmpty, "the spill file is closed after the commit")
        let indexed = try temp.store.read { db in try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value") ?? 0 }
        #expect(indexed >= 50)
    }

    /// The files this process holds open that were unlinked (Linux's `/proc/self/fd`).
    private static func openDeletedFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                  target.hasSuffix(" (deleted)") else { return nil }
            return String(target.dropLast(" (deleted)".count))
        }
    }

    @Test(arguments: [7, 1_000_000])
    func aFailureUndoesOnlyTheTransactionUnderWay(indexRowLimit: Int) throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let db = temp.privateDB
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.writeInBulk(itemsPerTransaction: 200, indexRowLimit: indexRowLimit) { writer in
                for batch in 0..<3 {
                    let records = (0..<100).map {
                        Record(recordType: "Item", recordID: RecordID(recordName: "i-\(batch)-\($0)", zoneID: zone), fields: ["n": .int64(Int64($0))])
                    }
                    _ = try writer.modifyRecords(saving: records).savedRecords()
                }
                throw Stop()
            }
        }
        // The first 200 were committed, with their index rows; the third batch went with the
        // failure, the rows it had spilled with it.
        #expect(try db.recordCountsByType(inZoneWith: zone)["Item"] == 200)
        let rows = try temp.store.read { db in
            try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value v JOIN record r ON r.id = v.record_id WHERE r.name LIKE 'i-%'") ?? -1
        }
        #expect(rows == 200)
        let orphans = try temp.store.read { db in
            try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value WHERE record_id NOT IN (SELECT id FROM record)") ?? -1
        }
        #expect(orphans == 0)
    }

    @Test func tooLargeABatchIsRefusedBeforeAnythingIsWritten() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Bulk")
        let db = temp.privateDB
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.writeInBulk(itemsPerTransaction: 200) { writer in
                for batch in 0..<3 {
                    let records = (0..<100).map { Record(recordType: "Item", recordID: RecordID(recordName: "i-\(batch)-\($0)", zoneID: zone)) }
                    _ = try writer.modifyRecords(saving: records).savedRecords()
                }
                throw Stop()
            }
        }
        // The first 200 were committed; the third batch went with the failure.
        #expect(try db.recordCountsByType(inZoneWith: zone)["Item"] == 200)
        // Too large a batch is refused as modifyRecords refuses it, before anything is written.
        #expect(throws: CloudKitError.self) {
            try db.writeInBulk { writer in
                _ = try writer.modifyRecords(saving: (0..<401).map { Record(recordType: "Item", recordID: RecordID(recordName: "x\($0)", zoneID: zone)) })
            }
        }
        #expect(try db.recordCountsByType(inZoneWith: zone)["Item"] == 200)
    }
}
