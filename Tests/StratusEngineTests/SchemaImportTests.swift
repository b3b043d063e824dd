import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
@testable import StratusSQLite
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct SchemaImportTests {
    private func people(_ temp: TemporaryStore, zone: ZoneID) throws {
        let rows: [(String, String, Int64, Double, Double)] = [
            ("ann", "Ann Smith", 30, 37.33, -122.03), ("ben", "Ben Jones", 41, 37.40, -122.10),
            ("cat", "Cat Smith", 25, 48.85, 2.35), ("dan", "Dan Brown", 52, 35.68, 139.77),
        ]
        let records = rows.map { row in
            Record(recordType: "Person", recordID: RecordID(recordName: row.0, zoneID: zone), fields: [
                "name": .string(row.1), "age": .int64(row.2), "home": .location(Location(latitude: row.3, longitude: row.4)),
                "tags": .list(.string, [.string("t-\(row.0)")]),
            ])
        }
        _ = try temp.privateDB.modifyRecords(saving: records).savedRecords()
    }

    private func names(_ temp: TemporaryStore, _ zone: ZoneID, _ format: String, _ arguments: [PredicateArgument] = [],
                       sort: [QuerySort] = []) throws -> [String] {
        try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: format, arguments: arguments, sortDescriptors: sort),
                                   inZoneWith: zone).records.map(\.recordName).sorted()
    }

    private func indexRows(_ temp: TemporaryStore, field: String) throws -> Int {
        try temp.store.read { db in
            let catalog = try temp.store.catalog(db)
            guard let id = catalog.type(named: "Person")?.fieldIDs[field] else { return -1 }
            return try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM field_value WHERE field_id = ?", arguments: [id])!
        }
    }

    private func schema(_ person: String, extra: String = "") -> String {
        """
        DEFINE SCHEMA
            RECORD TYPE Person (
                "___recordID" REFERENCE QUERYABLE,
                \(person)
            );
        \(extra)
        """
    }

    @Test func importSetsEverythingAndExportImportExportIsByteIdentical() throws {
        for fixture in [SchemaFixtures.department, SchemaFixtures.coins, SchemaFixtures.everyType, SchemaFixtures.syntaxCorners] {
            let temp = try TemporaryStore()
            try temp.store.importSchema(text: fixture)
            let first = try temp.store.exportSchema().text
            // import -> export -> import is stable: the export declares what the file declared.
            let original = try SchemaDocument.parse(fixture)
            let exported = try SchemaDocument.parse(first)
            for type in original.recordTypes {
                let back = try #require(exported.recordType(named: type.name))
                #expect(Set(back.customFields) == Set(type.customFields))
                #expect(back.systemIndexes == type.systemIndexes)
                #expect(back.grants == type.grants)
            }
            #expect(Set(exported.roles) == Set(original.roles))
            // export -> import -> export is byte-identical, in the same store and in a fresh one.
            try temp.store.importSchema(text: first)
            #expect(try temp.store.exportSchema().text == first)
            let other = try TemporaryStore()
            try other.store.importSchema(text: first)
            #expect(try other.store.exportSchema().text == first)
        }
    }

    @Test func importedSchemaIsWhatTheCatalogAndPredicateCheckerSee() throws {
        let temp = try TemporaryStore()
        let result = try temp.store.importSchema(text: SchemaFixtures.everyType)
        #expect(result.addedTypes == ["Kitchen"])
        let kitchen = try #require(try temp.store.recordTypes().first { $0.name == "Kitchen" })
        #expect(kitchen.fields["wholeNumber"] == SchemaField(name: "wholeNumber", type: .int64, indexes: [.queryable]))
        #expect(kitchen.fields["secretText"]?.type == .string)
        #expect(kitchen.fields["texts"]?.indexes == [.queryable, .searchable])
        #expect(kitchen.systemIndexes.values.allSatisfy { $0.isEmpty })
        // Users stays (with roles) when the file omits it.
        #expect(try temp.store.recordTypes().first { $0.name == "Users" }?.fields["roles"]?.type == .list(.int64))
        #expect(try temp.store.exportSchema().text.contains("        roles           LIST<INT64>"))
        // A NUMBER PREFERRED AS INT64 field takes INT64 values.
        try temp.privateDB.save(Record(recordType: "Kitchen", recordID: RecordID(recordName: "k"), fields: ["wholeNumber": .int64(3)]))
        #expect(throws: CloudKitError.self) {
            try temp.privateDB.save(Record(recordType: "Kitchen", recordID: RecordID(recordName: "k2"), fields: ["wholeNumber": .string("3")]))
        }
    }

    @Test func lossyImportIsRefusedNamingEachLoss() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("People")
        try people(temp, zone: zone)
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone), fields: ["text": .string("x")]))
        let lossy = schema("name STRING QUERYABLE, age STRING, home LOCATION")
        do {
            try temp.store.importSchema(text: lossy)
            Issue.record("a lossy import was accepted")
        } catch let error as CloudKitError {
            #expect(error.code == .invalidArguments)
            #expect(error.message.contains("record type Note would be removed, but 1 record holds it"))
            #expect(error.message.contains("field Person.tags would be removed, but 4 records hold a value"))
            #expect(error.message.contains("field Person.age would change type from INT64 to STRING, but 4 records hold a value"))
            #expect(error.message.contains("A forced import deletes that data"))
            #expect(!error.message.contains("--"), "the engine names no command-line option")
        }
        // Nothing changed.
        #expect(try temp.store.recordTypes().map(\.name).contains("Note"))
        #expect(try temp.privateDB.record(for: RecordID(recordName: "ann", zoneID: zone))["tags"] != nil)
        let dry = try temp.store.importSchema(try SchemaDocument.parse(schema("name STRING, age INT64, home LOCATION, tags LIST<STRING>, nick STRING",
                                                                              extra: "    RECORD TYPE Note (text STRING);")), dryRun: true)
        #expect(dry.addedFields == ["Person.nick"])
        #expect(dry.removedTypes.isEmpty)
        #expect(dry.reindexedFields == ["Note.text", "Person.age", "Person.home", "Person.name", "Person.tags"])
        #expect(try temp.store.recordTypes().first { $0.name == "Person" }?.fields["nick"] == nil)
    }

    @Test func forcedImportDeletesTheLostDataInTheSameTransaction() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("People")
        try people(temp, zone: zone)
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone), fields: ["text": .string("x")]))
        let before = try temp.privateDB.record(for: RecordID(recordName: "ann", zoneID: zone))
        let token = try temp.privateDB.currentToken(for: zone)
        let result = try temp.store.importSchema(try SchemaDocument.parse(schema("name STRING QUERYABLE, age STRING QUERYABLE, home LOCATION")), force: true)
        #expect(result.deletedRecords == 1)
        #expect(result.strippedRecords == 4)
        #expect(result.losses.count == 3)
        #expect(!(try temp.store.recordTypes().map(\.name).contains("Note")))
        let after = try temp.privateDB.record(for: RecordID(recordName: "ann", zoneID: zone))
        #expect(after["tags"] == nil && after["age"] == nil)
        #expect(after["name"] == .string("Ann Smith"))
        #expect(after.recordChangeTag != before.recordChangeTag)
        // The loss is in the change feed: four changed people and the deleted note, by type name.
        let changes = try temp.privateDB.recordZoneChanges(inZoneWith: zone, since: token).changes
        #expect(changes.count == 5)
        #expect(changes.contains { if case .deleted(let id, let type) = $0 { return id.recordName == "n1" && type == "Note" } else { return false } })
        // The retyped field takes its new type.
        try temp.privateDB.save(Record(recordType: "Person", recordID: RecordID(recordName: "eve", zoneID: zone), fields: ["age": .string("old")]))
        #expect(try names(temp, zone, "age == 'old'") == ["eve"])
        // A type removed and declared again comes back under its old id; its tombstone still names it.
        try temp.store.importSchema(text: schema("name STRING QUERYABLE, age STRING QUERYABLE, home LOCATION", extra: "    RECORD TYPE Note (text STRING);"))
        try temp.privateDB.save(Record(recordType: "Note", recordID: RecordID(recordName: "n2", zoneID: zone), fields: ["text": .string("y")]))
        #expect(try temp.store.recordTypes().map(\.name).contains("Note"))
    }

    @Test func forcedTypeRemovalCascadesToDeleteSelfReferences() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Library")
        let book = RecordID(recordName: "book", zoneID: zone)
        let review = { (name: String, action: Reference.Action) in
            Record(recordType: "Review", recordID: RecordID(recordName: name, zoneID: zone),
                   fields: ["book": .reference(Reference(recordName: "book", action: action))])
        }
        var comment = Record(recordType: "Comment", recordID: RecordID(recordName: "comment", zoneID: zone))
        comment["review"] = .reference(Reference(recordName: "r-owned", action: .deleteSelf))
        _ = try temp.privateDB.modifyRecords(saving: [Record(recordType: "Book", recordID: book), review("r-owned", .deleteSelf),
                                                      review("r-loose", .none), comment]).savedRecords()
        let token = try temp.privateDB.currentToken(for: zone)
        let result = try temp.store.importSchema(text: """
            DEFINE SCHEMA
                RECORD TYPE Review (book REFERENCE QUERYABLE);
                RECORD TYPE Comment (review REFERENCE QUERYABLE);
            """, force: true)
        // The book, the review that belonged to it, and the comment that belonged to that review.
        #expect(result.deletedRecords == 3)
        #expect(try temp.privateDB.exportCount(zone: zone) == 1)
        #expect(try temp.privateDB.record(for: RecordID(recordName: "r-loose", zoneID: zone))["book"] != nil)
        let deleted = try temp.privateDB.recordZoneChanges(inZoneWith: zone, since: token).changes.compactMap { change -> String? in
            if case .deleted(let id, _) = change { return id.recordName } else { return nil }
        }
        #expect(Set(deleted) == ["book", "r-owned", "comment"])
    }

    @Test func productionStoresRefuseLossesEvenWhenForced() throws {
        let temp = try TemporaryStore(environment: .production)
        try temp.store.importSchema(text: schema("name STRING QUERYABLE, age INT64"))
        try temp.privateDB.save(Record(recordType: "Person", recordID: RecordID(recordName: "p"), fields: ["age": .int64(3)]))
        #expect(throws: CloudKitError.self) { try temp.store.importSchema(text: schema("name STRING QUERYABLE"), force: true) }
        #expect(try temp.store.recordTypes().first { $0.name == "Person" }?.fields["age"] != nil)
        // Removing a field nobody holds is fine.
        try temp.store.importSchema(text: schema("age INT64"))
        #expect(try temp.store.recordTypes().first { $0.name == "Person" }?.fields["name"] == nil)
        #expect(throws: CloudKitError.self) { try temp.store.importSchema(text: schema("age INT64"), environment: .development) }
    }

    @Test(.sqliteOnly("counts SQLite's index rows")) func addingAndRemovingIndexesRebuildsIndexRows() throws {
        let temp = try TemporaryStore()
        try temp.store.importSchema(text: schema("name STRING, age INT64, home LOCATION, tags LIST<STRING>"))
        let zone = try temp.zone("People")
        try people(temp, zone: zone)
        #expect(try indexRows(temp, field: "age") == 0)
        // A field without QUERYABLE cannot be queried, with CloudKit's message.
        do {
            _ = try names(temp, zone, "age > 29")
            Issue.record("queried a field that is not sortable")
        } catch let error as CloudKitError {
            #expect(error.message.contains("Field 'age' is not marked sortable"))
        }
        var version = try temp.store.read { db in try temp.store.catalog(db).version }
        let added = try temp.store.importSchema(text: schema("name STRING SEARCHABLE, age INT64 QUERYABLE SORTABLE, home LOCATION QUERYABLE, tags LIST<STRING> QUERYABLE"))
        #expect(added.reindexedFields == ["Person.age", "Person.home", "Person.name", "Person.tags"])
        #expect(added.rebuiltRecords == 4)
        #expect(try temp.store.read { db in try temp.store.catalog(db).version } > version)
        #expect(try indexRows(temp, field: "age") == 4)
        #expect(try names(temp, zone, "age > 29") == ["ann", "ben", "dan"])
        #expect(try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: "age >= 30", sortDescriptors: [QuerySort("age", ascending: false)]),
                                           inZoneWith: zone).records.map(\.recordName) == ["dan", "ben", "ann"])
        #expect(try names(temp, zone, "tags CONTAINS 't-cat'") == ["cat"])
        #expect(try names(temp, zone, "self CONTAINS 'smith'") == ["ann", "cat"])
        let near = try names(temp, zone, "distanceToLocation:fromLocation:(home, %@) < 20", [.location(latitude: 37.33, longitude: -122.03)])
        #expect(near == ["ann", "ben"])
        // Saves after the change keep the new indexes.
        try temp.privateDB.save(Record(recordType: "Person", recordID: RecordID(recordName: "eve", zoneID: zone), fields: ["age": .int64(60), "name": .string("Eve Smith")]))
        #expect(try names(temp, zone, "age > 29") == ["ann", "ben", "dan", "eve"])
        #expect(try names(temp, zone, "self CONTAINS 'smith'") == ["ann", "cat", "eve"])

        version = try temp.store.read { db in try temp.store.catalog(db).version }
        let removed = try temp.store.importSchema(text: schema("name STRING, age INT64 QUERYABLE, home LOCATION, tags LIST<STRING>"))
        #expect(removed.reindexedFields == ["Person.age", "Person.home", "Person.name", "Person.tags"])
        #expect(try temp.store.read { db in try temp.store.catalog(db).version } > version)
        #expect(try indexRows(temp, field: "home") == 0)
        #expect(try indexRows(temp, field: "tags") == 0)
        #expect(try indexRows(temp, field: "age") == 5)
        #expect(try temp.store.read { db in try Int.fetchOne(db.sqlite, sql: "SELECT count(*) FROM record_text")! } == 0)
        #expect(try names(temp, zone, "age == 60") == ["eve"])
        #expect(throws: CloudKitError.self) { try names(temp, zone, "self CONTAINS 'smith'") }
        #expect(throws: CloudKitError.self) { try names(temp, zone, "age > 29") }
        // Deleting a record after the change leaves no stray index rows.
        try temp.privateDB.deleteRecord(withID: RecordID(recordName: "eve", zoneID: zone))
        #expect(try indexRows(temp, field: "age") == 4)
    }

    @Test func importingAsProductionMakesTheSchemaDecide() throws {
        let temp = try TemporaryStore()
        let result = try temp.store.importSchema(text: schema("name STRING QUERYABLE, age INT64 SORTABLE"), environment: .production)
        #expect(result.environment == .production)
        #expect(try temp.store.environment == .production)
        try temp.privateDB.save(Record(recordType: "Person", recordID: RecordID(recordName: "p1"), fields: ["name": .string("Ann"), "age": .int64(3)]))
        do {
            try temp.privateDB.save(Record(recordType: "Person", recordID: RecordID(recordName: "p2"), fields: ["nick": .string("A")]))
            Issue.record("saved an undeclared field in production")
        } catch let error as CloudKitError {
            #expect(error.message.contains("Cannot create or modify field 'nick' in record type 'Person' in production schema"))
        }
        #expect(throws: CloudKitError.self) { try temp.privateDB.save(Record(recordType: "Pet", recordID: RecordID(recordName: "x"))) }
        #expect(try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: "name == 'Ann'")).records.count == 1)
        do {
            _ = try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: "age == 3"))
            Issue.record("queried a field that is not queryable")
        } catch let error as CloudKitError {
            #expect(error.code == .invalidArguments)
            #expect(error.message.contains("Field 'age' is not marked queryable"))
        }
        #expect(try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: "age > 1")).records.count == 1)
    }

    @Test func rolesAndGrantsAreReplacedByEachImport() throws {
        let temp = try TemporaryStore()
        try temp.store.importSchema(text: SchemaFixtures.department)
        #expect(try temp.store.exportSchema().roles == ["DeptManager"])
        #expect(try temp.store.exportSchema().recordType(named: "Department")?.grants.count == 4)
        try temp.store.importSchema(text: "DEFINE SCHEMA CREATE ROLE Auditor; RECORD TYPE Department (name STRING, GRANT READ TO Auditor);")
        let exported = try temp.store.exportSchema()
        #expect(exported.roles == ["Auditor"])
        #expect(exported.recordType(named: "Department")?.grants == [GrantDeclaration([.read], to: "Auditor")])
        #expect(exported.recordType(named: "Department")?.systemIndexes.values.allSatisfy(\.isEmpty) == true)
    }
}
