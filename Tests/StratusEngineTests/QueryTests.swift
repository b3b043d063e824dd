import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
import StratusPredicates
import StratusTestSupport
import Testing

@Suite(.onEveryBackend) struct QueryTests {
    /// A zone of people with every queryable type, for the listings and operator tests.
    private func peopleStore() throws -> (TemporaryStore, ZoneID) {
        let temp = try TemporaryStore()
        let zone = try temp.zone("People")
        let db = temp.privateDB
        let rows: [(String, String, Int64, [String], Double, Double)] = [
            ("ann", "Bob Smith", 30, ["red", "blue"], 37.33, -122.03),
            ("ben", "Alice Café", 41, ["Green"], 37.40, -122.10),
            ("cat", "Smith & Sons", 25, ["reddish", "yellow"], 48.85, 2.35),
            ("dan", "東京 タワー", 52, [], 35.68, 139.77),
            ("eve", "bob", 30, ["RED"], 37.34, -122.04),
        ]
        var records: [Record] = []
        for (index, row) in rows.enumerated() {
            var record = Record(recordType: "Person", recordID: RecordID(recordName: row.0, zoneID: zone))
            record["name"] = .string(row.1)
            record["age"] = .int64(row.2)
            record["favoriteColors"] = .list(.string, row.3.map { .string($0) })
            record["favoriteColor"] = .string(row.3.first ?? "none")
            record["location"] = .location(Location(latitude: row.4, longitude: row.5))
            record["employee"] = .reference(Reference(recordName: "emp-\(index % 2)"))
            record["joined"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400))
            record["height"] = .double(1.5 + Double(index) / 10)
            records.append(record)
        }
        _ = try db.modifyRecords(saving: records).savedRecords()
        return (temp, zone)
    }

    private func names(_ db: CloudDatabase, _ zone: ZoneID, _ format: String, _ arguments: [PredicateArgument] = [],
                       sort: [QuerySort] = []) throws -> [String] {
        try db.records(matching: Query(recordType: "Person", predicateFormat: format, arguments: arguments, sortDescriptors: sort),
                       inZoneWith: zone).records.map(\.recordName)
    }

    @Test func listingsOneToEight() throws {
        let (temp, zone) = try peopleStore()
        let db = temp.privateDB
        #expect(Set(try names(db, zone, "employee == %@", [.reference("emp-0")])) == ["ann", "cat", "eve"])
        let listing2 = try ["ANY favoriteColors = 'red'", "favoriteColors CONTAINS 'red'", "'red' IN favoriteColors"].map { Set(try names(db, zone, $0)) }
        let listing2K = Set(try names(db, zone, "%K CONTAINS %@", [.key("favoriteColors"), .string("red")]))
        #expect(listing2.allSatisfy { $0 == ["ann", "eve"] })
        #expect(listing2K == ["ann", "eve"])
        let listing3 = try ["ANY { 'red', 'green' } = favoriteColor", "favoriteColor IN { 'red', 'green' }"].map { Set(try names(db, zone, $0)) }
        #expect(listing3.allSatisfy { $0 == ["ann", "ben", "eve"] })
        #expect(Set(try names(db, zone, "ANY favoriteColors BEGINSWITH 'red'")) == ["ann", "cat"])
        #expect(Set(try names(db, zone, "ANY favoriteColors BEGINSWITH %@", [.string("red")])) == ["ann", "cat"])
        #expect(Set(try names(db, zone, "self contains 'bob smith'")) == ["ann", "cat", "eve"])
        #expect(Set(try names(db, zone, "self contains 'bob' AND self contains 'smith'")) == ["ann"])
        #expect(Set(try names(db, zone, "self contains 'cafe'")) == ["ben"])
        #expect(Set(try names(db, zone, "distanceToLocation:fromLocation:(location, %@) < %f",
                              [.location(latitude: 37.331913, longitude: -122.030210), .double(10)])) == ["ann", "ben", "eve"])
        #expect(try names(db, zone, "TRUEPREDICATE").count == 5)
        #expect(try names(db, zone, "FALSEPREDICATE").isEmpty)
    }

    @Test func operatorsOnEachType() throws {
        let (temp, zone) = try peopleStore()
        let db = temp.privateDB
        #expect(Set(try names(db, zone, "name == 'BOB'")) == ["eve"])
        #expect(Set(try names(db, zone, "name != 'bob'")) == ["ann", "ben", "cat", "dan"])
        #expect(Set(try names(db, zone, "name BEGINSWITH 'Smith'")) == ["cat"])
        #expect(try names(db, zone, "name BEGINSWITH 'smith'").isEmpty)
        #expect(Set(try names(db, zone, "name BEGINSWITH '東京'")) == ["dan"])
        #expect(Set(try names(db, zone, "age > 30")) == ["ben", "dan"])
        #expect(Set(try names(db, zone, "age >= 30 AND age <= 41")) == ["ann", "ben", "eve"])
        #expect(Set(try names(db, zone, "age BETWEEN {25, 30}")) == ["ann", "cat", "eve"])
        #expect(Set(try names(db, zone, "age IN {25, 52}")) == ["cat", "dan"])
        #expect(Set(try names(db, zone, "NOT (age IN {25, 52})")) == ["ann", "ben", "eve"])
        #expect(Set(try names(db, zone, "height < 1.65")) == ["ann", "ben"])
        #expect(Set(try names(db, zone, "height > %d", [.int(1)])).count == 5)
        #expect(Set(try names(db, zone, "joined >= %@", [.date(Date(timeIntervalSince1970: 1_700_000_000 + 3 * 86_400))])) == ["dan", "eve"])
        #expect(Set(try names(db, zone, "creationDate <= now()")).count == 5)
        #expect(Set(try names(db, zone, "recordID IN %@", [.value(.list(.reference, [.reference(Reference(recordName: "ann")), .reference(Reference(recordName: "dan"))]))])) == ["ann", "dan"])
        #expect(Set(try names(db, zone, "employee != %@", [.reference("emp-0")])) == ["ben", "dan"])
        #expect(Set(try names(db, zone, "NOT (name BEGINSWITH 'Smith')")) == ["ann", "ben", "dan", "eve"])
    }

    @Test func sortsAndCursorsAcrossPagesNeverRepeatOrSkip() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Numbers")
        let db = temp.privateDB
        let records = (0..<120).map { index in
            Record(recordType: "Person", recordID: RecordID(recordName: String(format: "p%03d", index), zoneID: zone),
                   fields: ["age": .int64(Int64(index % 7)), "name": .string("n\(index % 13)")])
        }
        _ = try db.modifyRecords(saving: records).savedRecords()
        for (format, sorts) in [("age >= 2", [QuerySort("age", ascending: false)]),
                                ("TRUEPREDICATE", [QuerySort("name"), QuerySort("age", ascending: false)]),
                                ("TRUEPREDICATE", []),
                                ("age IN {1, 3}", [QuerySort("modificationDate")])] {
            let query = Query(recordType: "Person", predicateFormat: format, sortDescriptors: sorts)
            var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: 7)
            var seen = page.records
            while let cursor = page.cursor {
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: 7)
                seen += page.records
            }
            let all = try db.records(matching: query, inZoneWith: zone, resultsLimit: 1000).records
            #expect(seen.map(\.recordName) == all.map(\.recordName), "\(format)")
            #expect(Set(seen.map(\.recordName)).count == seen.count, "\(format) repeated a record")
            if let first = sorts.first, first.key == "age" {
                let ages = seen.compactMap { record -> Int64? in if case .int64(let age)? = record["age"] { return age }; return nil }
                #expect(ages == ages.sorted(by: >))
            }
        }
    }

    @Test func refusedPredicatesCarryTheirRange() throws {
        let (temp, zone) = try peopleStore()
        let error = #expect(throws: CloudKitError.self) { try names(temp.privateDB, zone, "age > 3 OR age < 1") }
        #expect(error?.code == .invalidArguments)
        #expect(error?.predicateDiagnostics?.first?.code == .orOperator)
        #expect(error?.predicateDiagnostics?.first?.range == SourceRange(offset: 8, length: 2))
        let unknown = #expect(throws: CloudKitError.self) { try names(temp.privateDB, zone, "nickname == 'x'") }
        #expect(unknown?.predicateDiagnostics?.first?.code == .unknownField)
        let missingType = #expect(throws: CloudKitError.self) {
            try temp.privateDB.records(matching: Query(recordType: "Ghost"), inZoneWith: zone)
        }
        #expect(missingType?.code == .unknownItem)
        let users = #expect(throws: CloudKitError.self) { try temp.privateDB.records(matching: Query(recordType: "Users")) }
        #expect(users?.predicateDiagnostics?.first?.code == .usersType)
    }

    @Test func productionSchemaIndexesDecide() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Z")
        try temp.store.write { db in
            var catalog = try temp.store.catalog(db)
            _ = try catalog.addType("Item", systemIndexes: [.recordID: [.queryable]], in: db)
            try catalog.addField(SchemaField(name: "plain", type: .string, indexes: []), toType: "Item", in: db)
            try catalog.addField(SchemaField(name: "eq", type: .int64, indexes: [.queryable]), toType: "Item", in: db)
            try temp.store.schemaChanged(db, catalog: &catalog)
        }
        try temp.privateDB.save(Record(recordType: "Item", recordID: RecordID(recordName: "i", zoneID: zone), fields: ["plain": .string("x"), "eq": .int64(1)]))
        let db = temp.privateDB
        func diagnostic(_ format: String, sort: [QuerySort] = []) -> String? {
            do {
                _ = try db.records(matching: Query(recordType: "Item", predicateFormat: format, sortDescriptors: sort), inZoneWith: zone)
                return nil
            } catch let error as CloudKitError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(diagnostic("plain == 'x'") == "Field 'plain' is not marked queryable")
        #expect(diagnostic("eq > 0") == "Field 'eq' is not marked sortable")
        #expect(diagnostic("self CONTAINS 'x'")?.contains("searchable") == true)
        #expect(diagnostic("eq == 1") == nil)
        #expect(diagnostic("TRUEPREDICATE", sort: [QuerySort("eq")]) == "Field 'eq' is not marked sortable")
    }

    @Test func cursorsAreCheckedAndSurviveAnotherProcess() throws {
        let (temp, zone) = try peopleStore()
        let page = try temp.privateDB.records(matching: Query(recordType: "Person", sortDescriptors: [QuerySort("age")]), inZoneWith: zone, resultsLimit: 2)
        let cursor = try #require(page.cursor)
        let reopened = try temp.reopened()
        let next = try reopened.database(.private).records(continuingMatchFrom: cursor, resultsLimit: 2)
        #expect(next.records.count == 2)
        #expect(Set(next.records.map(\.recordName)).isDisjoint(with: page.records.map(\.recordName)))
        let damaged = #expect(throws: CloudKitError.self) { try temp.privateDB.records(continuingMatchFrom: String(cursor.dropLast(3)) + "AAA") }
        #expect(damaged?.code == .invalidArguments)
        let foreign = try TemporaryStore()
        let other = #expect(throws: CloudKitError.self) { try foreign.privateDB.records(continuingMatchFrom: cursor) }
        #expect(other?.message.contains("another store") == true)
        let token = try temp.privateDB.currentToken(for: zone)
        let wrongKind = #expect(throws: CloudKitError.self) { try temp.privateDB.records(continuingMatchFrom: token) }
        #expect(wrongKind?.message.contains("not a query cursor") == true)
    }

    @Test func sortsByDistanceFromALocation() throws {
        let (temp, zone) = try peopleStore()
        let cupertino = Location(latitude: 37.33, longitude: -122.03)
        let nearest = try names(temp.privateDB, zone, "TRUEPREDICATE", sort: [QuerySort("location", ascending: true, distanceFrom: cupertino)])
        #expect(nearest == ["ann", "eve", "ben", "dan", "cat"])
        let farthest = try names(temp.privateDB, zone, "TRUEPREDICATE", sort: [QuerySort("location", ascending: false, distanceFrom: cupertino)])
        #expect(farthest == ["cat", "dan", "ben", "eve", "ann"])
    }

    @Test func desiredKeysTrimQueryResults() throws {
        let (temp, zone) = try peopleStore()
        let records = try temp.privateDB.records(matching: Query(recordType: "Person", predicateFormat: "age == 30"), inZoneWith: zone, desiredKeys: ["age"]).records
        #expect(records.count == 2)
        #expect(records.allSatisfy { Array($0.fields.keys) == ["age"] })
    }
}
