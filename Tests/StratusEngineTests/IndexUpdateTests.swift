import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// Replacing a record moves only the index rows of the fields whose stored values changed: the
/// rest stay as they are, and queries answer as if every row had been written anew.
@Suite struct IndexUpdateTests {
    /// A store whose writer logs every `field_value` row removed or added (temporary triggers
    /// on the writing connection), with one record `r` of several indexed fields.
    private static func store() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Z")
        try temp.store.write { db in
            try db.sqlite.execute(sql: """
                CREATE TEMP TABLE index_log (change TEXT, field_id INTEGER, value);
                CREATE TEMP TRIGGER log_removed AFTER DELETE ON main.field_value
                    BEGIN INSERT INTO index_log VALUES ('removed', old.field_id, old.value); END;
                CREATE TEMP TRIGGER log_added AFTER INSERT ON main.field_value
                    BEGIN INSERT INTO index_log VALUES ('added', new.field_id, new.value); END;
                """)
        }
        let record = StratusCloud.Record(recordType: "Note", recordID: RecordID(recordName: "r", zoneID: zone), fields: [
            "title": .string("Harbour lights"), "rank": .int64(3), "tags": .list(.string, [.string("blue"), .string("green")]), "body": .string("quiet evening tide"),
        ])
        _ = try temp.privateDB.modifyRecords(saving: [record]).savedRecords()
        return (temp, zone)
    }

    /// The rows logged since the last call, as "removed title", "added rank" ..., sorted.
    private static func logged(_ temp: TemporaryStore) throws -> [String] {
        try temp.store.write { db in
            let rows = try Row.fetchAll(db.sqlite, sql: """
                SELECT l.change, f.name FROM index_log l JOIN schema_field f ON f.id = l.field_id ORDER BY l.rowid
                """)
            try db.sqlite.execute(sql: "DELETE FROM index_log")
            return rows.map { "\($0[0] as String) \($0[1] as String)" }.sorted()
        }
    }

    private static func names(_ temp: TemporaryStore, _ zone: ZoneID, _ format: String) throws -> [String] {
        try temp.privateDB.records(matching: Query(recordType: "Note", predicateFormat: format), inZoneWith: zone, resultsLimit: 10)
            .records.map(\.recordName)
    }

    private static func save(_ temp: TemporaryStore, _ zone: ZoneID, _ change: (inout StratusCloud.Record) -> Void) throws {
        var record = try #require(try temp.privateDB.records(for: [RecordID(recordName: "r", zoneID: zone)]).first).result.get()
        change(&record)
        _ = try temp.privateDB.modifyRecords(saving: [record]).savedRecords()
    }

    @Test func savingARecordUnchangedTouchesNoIndexRow() throws {
        let (temp, zone) = try Self.store()
        _ = try Self.logged(temp)
        try Self.save(temp, zone) { $0["title"] = .string("Harbour lights") }
        #expect(try Self.logged(temp) == [])
        #expect(try Self.names(temp, zone, "title == 'Harbour lights' AND rank == 3 AND 'blue' IN tags") == ["r"])
        #expect(try Self.names(temp, zone, "self CONTAINS 'tide'") == ["r"])
    }

    @Test func onlyTheChangedFieldsRowsMove() throws {
        let (temp, zone) = try Self.store()
        _ = try Self.logged(temp)
        try Self.save(temp, zone) {
            $0["rank"] = .int64(4)
            $0["tags"] = nil
            $0["extra"] = .int64(1)
        }
        #expect(try Self.logged(temp) == ["added extra", "added rank", "removed rank", "removed tags", "removed tags"])
        #expect(try Self.names(temp, zone, "rank == 4 AND extra == 1 AND title == 'Harbour lights'") == ["r"])
        #expect(try Self.names(temp, zone, "rank == 3") == [])
        #expect(try Self.names(temp, zone, "'blue' IN tags") == [])
        // No searchable field changed: the full-text row stayed, and still finds the record.
        #expect(try Self.names(temp, zone, "self CONTAINS 'harbour' AND self CONTAINS 'tide'") == ["r"])
    }

    @Test func changingSearchableTextRewritesTheFullTextRow() throws {
        let (temp, zone) = try Self.store()
        try Self.save(temp, zone) { $0["body"] = .string("stormy morning") }
        #expect(try Self.names(temp, zone, "self CONTAINS 'tide'") == [])
        #expect(try Self.names(temp, zone, "self CONTAINS 'stormy'") == ["r"])
        // The unchanged title's words are written again with the new row.
        #expect(try Self.names(temp, zone, "self CONTAINS 'harbour'") == ["r"])
    }

    /// Swift takes a precomposed and a decomposed é as one string; the index holds bytes, so
    /// the new spelling is a change and its rows are rewritten.
    @Test func anotherSpellingOfTheSameStringIsAChange() throws {
        let (temp, zone) = try Self.store()
        try Self.save(temp, zone) { $0["title"] = .string("Caf\u{E9}") }
        _ = try Self.logged(temp)
        try Self.save(temp, zone) { $0["title"] = .string("Cafe\u{301}") }
        #expect(try Self.logged(temp) == ["added title", "removed title"])
        let stored = try temp.store.read { db in
            try Data.fetchOne(db.sqlite, sql: """
                SELECT CAST(value AS BLOB) FROM field_value WHERE field_id = (SELECT id FROM schema_field WHERE name = 'title')
                """)
        }
        #expect(stored == Data("Cafe\u{301}".utf8))
    }

    /// `reference_edge` rows name no field: two fields pointing at one target with DELETE_SELF
    /// share a row, and dropping one of them leaves the other's edge (the cascade still works).
    @Test func twoFieldsPointingAtOneRecordKeepTheirEdge() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Z")
        let db = temp.privateDB
        let parent = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "parent", zoneID: zone), fields: ["title": .string("p")])
        let child = StratusCloud.Record(recordType: "Item", recordID: RecordID(recordName: "child", zoneID: zone), fields: [
            "owner": .reference(Reference(recordName: "parent", action: .deleteSelf)),
            "links": .list(.reference, [.reference(Reference(recordName: "parent", action: .deleteSelf))]),
        ])
        _ = try db.modifyRecords(saving: [parent, child]).savedRecords()
        var fetched = try #require(try db.records(for: [child.recordID]).first).result.get()
        fetched["links"] = nil
        _ = try db.modifyRecords(saving: [fetched]).savedRecords()
        #expect(try temp.store.read { db in try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM reference_edge") } == 1)
        let result = try db.modifyRecords(deleting: [parent.recordID])
        #expect(result.cascadeDeletedRecordIDs.map(\.recordName) == ["child"])
        #expect(try db.records(for: [child.recordID]).first.map { (try? $0.result.get()) == nil } == true)
    }

    /// A store filled again from its own export: every record is replaced by itself, and no
    /// index row moves.
    @Test func reimportingAnExportMovesNoIndexRow() throws {
        let (temp, zone) = try Self.store()
        let others = (0..<50).map { index in
            StratusCloud.Record(recordType: "Note", recordID: RecordID(recordName: "n\(index)", zoneID: zone),
                   fields: ["title": .string("note \(index)"), "rank": .int64(Int64(index % 7)), "body": .string("word\(index) tide")])
        }
        _ = try temp.privateDB.modifyRecords(saving: others).savedRecords()
        var lines = Data()
        _ = try temp.privateDB.exportRecords(zone: zone, embedAssets: false, write: { lines.append($0) })
        _ = try Self.logged(temp)
        let file = temp.directory.appendingPathComponent("export.jsonl")
        try lines.write(to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        #expect(try temp.privateDB.importRecords(lines: handle, zoneID: zone) == 51)
        #expect(try Self.logged(temp) == [])
        #expect(try Self.names(temp, zone, "rank == 3").sorted() == ["n10", "n17", "n24", "n3", "n31", "n38", "n45", "r"])
        #expect(try Self.names(temp, zone, "self CONTAINS 'word12'") == ["n12"])
    }
}
