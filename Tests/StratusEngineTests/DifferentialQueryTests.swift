import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport
import StratusCloud

/// Thousands of random checked predicates over random records: what the engine's index-driven
/// query returns (through every cursor page) must equal the in-memory evaluator run over every
/// record of the zone.
@Suite(.onEveryBackend) struct DifferentialQueryTests {
    struct Adapter: FilterableRecord {
        let record: Record
        func value(for key: FieldKey) -> FieldValue? {
            switch key {
            case .custom(let name, _): return record[name]
            case .system(.recordID): return .reference(Reference(recordName: record.recordName))
            case .system(.createTime): return record.creationDate.map { .timestamp($0) }
            case .system(.modTime): return record.modificationDate.map { .timestamp($0) }
            case .system(.createdBy): return record.creatorUserRecordName.map { .reference(Reference(recordName: $0)) }
            case .system(.modifiedBy): return record.lastModifiedUserRecordName.map { .reference(Reference(recordName: $0)) }
            case .system(.etag): return record.recordChangeTag.map { .string($0) }
            case .system(.parent), .system(.share): return nil
            }
        }
        var customFieldNames: [String] { Array(record.fields.keys) }
    }

    static let words = ["apple", "Apple", "APPLE", "banana", "Café", "cafe", "東京", "straße", "STRASSE", "zebra", "", "a b", "Bob smith", "émile"]
    static let tokens = ["apple", "cafe", "bob", "smith", "東京", "zebra", "the", "banana"]

    func randomRecord(_ index: Int, zone: ZoneID, random: inout SeededGenerator) -> Record {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        var record = Record(recordType: "Thing", recordID: RecordID(recordName: "r\(index)", zoneID: zone))
        if chance(85) { record["s"] = .string(pick(Self.words)) }
        if chance(85) { record["n"] = .int64(Int64(random.next() % 21) - 10) }
        if chance(80) { record["d"] = .double(Double(Int(random.next() % 41) - 20) / 4) }
        if chance(80) { record["t"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(random.next() % 10) * 3600)) }
        if chance(75) { record["tags"] = .list(.string, (0..<Int(random.next() % 4)).map { _ in .string(pick(Self.words)) }) }
        if chance(75) { record["nums"] = .list(.int64, (0..<Int(random.next() % 4)).map { _ in .int64(Int64(random.next() % 8)) }) }
        if chance(80) {
            record["loc"] = .location(Location(latitude: 37 + Double(random.next() % 200) / 100, longitude: -122 + Double(random.next() % 200) / 100))
        }
        if chance(70) { record["ref"] = .reference(Reference(recordName: "r\(random.next() % 20)")) }
        if chance(60) { record["text"] = .string((0..<3).map { _ in pick(Self.tokens) }.joined(separator: " ")) }
        return record
    }

    func randomTerm(random: inout SeededGenerator) -> (String, [PredicateArgument]) {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let word = "'" + pick(Self.words) + "'"
        let number = Int(random.next() % 21) - 10
        let ops = ["==", "!=", "<", "<=", ">", ">="]
        switch random.next() % 22 {
        case 0: return ("s \(pick(ops)) \(word)", [])
        case 1: return ("s BEGINSWITH %@", [.string(String(pick(Self.words).prefix(Int(random.next() % 3))))])
        case 2: return ("s IN {\(word), '\(pick(Self.words))'}", [])
        case 3: return ("n \(pick(ops)) \(number)", [])
        case 4: return ("n BETWEEN {\(number), \(number + Int(random.next() % 6))}", [])
        case 5: return ("d \(pick(ops)) %@", [.double(Double(number) / 2)])
        case 6: return ("d \(pick(ops)) \(number)", [])
        case 7: return ("t \(pick(ops)) %@", [.date(Date(timeIntervalSince1970: 1_700_000_000 + Double(random.next() % 10) * 3600))])
        case 8: return ("ANY tags = \(word)", [])
        case 9: return ("tags CONTAINS \(word)", [])
        case 10: return ("ANY tags BEGINSWITH %@", [.string(String(pick(Self.words).prefix(2)))])
        case 11: return ("nums CONTAINS \(random.next() % 8)", [])
        case 12: return ("ANY nums IN {\(random.next() % 8), \(random.next() % 8)}", [])
        case 13: return ("self CONTAINS '\(pick(Self.tokens)) \(pick(Self.tokens))'", [])
        case 14: return ("distanceToLocation:fromLocation:(loc, %@) < %@",
                         [.location(latitude: 37 + Double(random.next() % 200) / 100, longitude: -122 + Double(random.next() % 200) / 100),
                          .double(Double(random.next() % 80))])
        case 15: return ("ref == %@", [.reference("r\(random.next() % 20)")])
        case 16: return ("NOT (n == \(number))", [])
        case 17: return ("NOT (s IN {\(word)})", [])
        case 18: return ("recordID IN %@", [.value(.list(.reference, (0..<3).map { _ in .reference(Reference(recordName: "r\(random.next() % 60)")) }))])
        case 19: return ("n IN {\(number), \(number + 1), \(number + 2)}", [])
        case 20: return ("NOT (tags CONTAINS \(word))", [])
        default: return ("s > %@", [.string(pick(Self.words))])
        }
    }

    static let sortKeys = ["s", "n", "d", "t", "modificationDate", "ref"]

    /// One to three random terms joined by AND, their arguments, and random sorts.
    func randomQuery(random: inout SeededGenerator) -> (predicate: String, arguments: [PredicateArgument], sorts: [QuerySort]) {
        var format: [String] = []
        var arguments: [PredicateArgument] = []
        for _ in 0..<Int(random.next() % 3 + 1) {
            let (term, termArguments) = randomTerm(random: &random)
            format.append(term)
            arguments += termArguments
        }
        var sorts: [QuerySort] = []
        if random.next() % 2 == 0 { sorts.append(QuerySort(Self.sortKeys[Int(random.next() % UInt64(Self.sortKeys.count))], ascending: random.next() % 2 == 0)) }
        if random.next() % 5 == 0 { sorts.append(QuerySort("n", ascending: false)) }
        return (format.joined(separator: " AND "), arguments, sorts)
    }

    @Test func indexDrivenQueriesAgreeWithTheEvaluator() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Random")
        let db = temp.privateDB
        var random = SeededGenerator(seed: 7)
        let records = (0..<200).map { randomRecord($0, zone: zone, random: &random) }
        for start in stride(from: 0, to: records.count, by: 100) {
            _ = try db.modifyRecords(saving: Array(records[start..<start + 100])).savedRecords()
        }
        let stored = try db.recordZoneChanges(inZoneWith: zone, resultsLimit: 1000).changes.compactMap { change -> Record? in
            if case .changed(let record) = change { return record }
            return nil
        }
        #expect(stored.count == 200)
        // The same records written by the bulk path (few large transactions) must answer every
        // query exactly as the store written batch by batch.
        let bulkTemp = try TemporaryStore()
        let bulkZone = try bulkTemp.zone("Random")
        let bulkDB = bulkTemp.privateDB
        try bulkDB.writeInBulk(itemsPerTransaction: 150) { writer in
            for start in stride(from: 0, to: records.count, by: 100) {
                _ = try writer.modifyRecords(saving: Array(records[start..<start + 100])).savedRecords()
            }
        }
        #expect(bulkZone == zone)
        let schema = try #require(try temp.store.recordTypes().first { $0.name == "Thing" })
        var checked = 0, nonEmpty = 0, indexCounted = 0
        for round in 0..<1200 {
            let (predicate, arguments, sorts) = randomQuery(random: &random)
            let query = Query(recordType: "Thing", predicateFormat: predicate, arguments: arguments, sortDescriptors: sorts)
            let now = Date()
            guard case .success(let compiled) = PredicateCompiler.compile(format: query.predicateFormat, arguments: arguments, recordType: "Thing",
                                                                         schema: schema, sorts: sorts, now: now) else { continue }
            let expected = stored.filter { compiled.filter.matches(Adapter(record: $0)) }
            var page = try db.records(matching: query, inZoneWith: zone, resultsLimit: Int(random.next() % 40 + 8))
            var got = page.records
            while let cursor = page.cursor {
                page = try db.records(continuingMatchFrom: cursor, resultsLimit: Int(random.next() % 40 + 8))
                got += page.records
            }
            checked += 1
            if !expected.isEmpty { nonEmpty += 1 }
            if let counted = try db.indexedCount(matching: query, inZoneWith: zone) {
                indexCounted += 1
                #expect(counted == got.count, "round \(round): the indexes count \(counted) for \(query.predicateFormat), the query returns \(got.count)")
            }
            var bulkPage = try bulkDB.records(matching: query, inZoneWith: zone, resultsLimit: 25)
            var bulkGot = bulkPage.records
            while let cursor = bulkPage.cursor {
                bulkPage = try bulkDB.records(continuingMatchFrom: cursor, resultsLimit: 25)
                bulkGot += bulkPage.records
            }
            // Modification times are the clock's, so records saved in the same millisecond in one
            // store may not be in the other: sorted by them, the same records are enough.
            if sorts.contains(where: { $0.key == "modificationDate" }) {
                #expect(Set(bulkGot.map(\.recordName)) == Set(got.map(\.recordName)), "round \(round): the bulk-written store answers \(query.predicateFormat) otherwise")
            } else {
                #expect(bulkGot.map(\.recordName) == got.map(\.recordName), "round \(round): the bulk-written store answers \(query.predicateFormat) otherwise")
            }
            let missing = Set(expected.map(\.recordName)).subtracting(got.map(\.recordName))
            let extra = Set(got.map(\.recordName)).subtracting(expected.map(\.recordName))
            #expect(missing.isEmpty && extra.isEmpty,
                    "round \(round): \(query.predicateFormat) \(arguments) sorts \(sorts.map(\.key)): missing \(missing.sorted().prefix(5)), extra \(extra.sorted().prefix(5))")
            #expect(got.count == Set(got.map(\.recordName)).count, "round \(round): a record came twice: \(query.predicateFormat)")
            // The same query read from its end gives the result's last records in its order.
            let tailSize = Int(random.next() % 30 + 1)
            let tail = try db.lastRecords(matching: query, inZoneWith: zone, resultsLimit: tailSize)
            #expect(tail.map(\.recordName) == got.suffix(tailSize).map(\.recordName),
                    "round \(round): the last \(tailSize) of \(query.predicateFormat) sorts \(sorts.map(\.key))")
            if let first = compiled.sorts.first {
                let values = got.map { Adapter(record: $0).value(for: first.key) }
                let present = values.prefix { $0 != nil }
                #expect(values.dropFirst(present.count).allSatisfy { $0 == nil }, "round \(round): records lacking \(first.key) must come last")
                for (a, b) in zip(present, present.dropFirst()) {
                    let order = SortOrder.compare(a, b)
                    #expect(first.ascending ? order <= 0 : order >= 0, "round \(round): not sorted by \(first.key) in \(query.predicateFormat)")
                }
            }
        }
        #expect(checked > 800)
        #expect(nonEmpty > 400)
        #expect(indexCounted > 100, "the indexes answered only \(indexCounted) counts")
    }
}
