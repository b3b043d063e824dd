import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

/// The in-memory evaluator, term by term and type by type.
@Suite struct EvaluatorTests {
    let date = Date(timeIntervalSince1970: 1_000)
    var record: TestRecord {
        TestRecord(fields: [
            "name": .string("Café Bob"), "age": .int64(30), "price": .double(2.5),
            "born": .timestamp(date), "owner": .reference(Reference(recordName: "u1", action: .deleteSelf)),
            "place": .location(Location(latitude: 37.33, longitude: -122.03)),
            "colors": .list(.string, [.string("Red"), .string("reddish"), .string("blue")]),
            "scores": .list(.int64, [.int64(1), .int64(2)]), "empty": .list(.string, []),
            "notes": .list(.string, [.string("the quick brown fox")]), "nan": .double(.nan),
        ], system: [
            .recordID: .reference(Reference(recordName: "rec-1")), .createTime: .timestamp(date),
            .etag: .string("e1"),
        ])
    }

    func matches(_ term: FilterTerm) -> Bool { QueryFilter(terms: [term]).matches(record) }

    let name = FieldKey.custom("name", .string)
    let age = FieldKey.custom("age", .int64)
    let price = FieldKey.custom("price", .double)
    let colors = FieldKey.custom("colors", .list(.string))
    let missing = FieldKey.custom("missing", .string)

    @Test func stringComparisons() {
        #expect(matches(.compare(name, .equal, .string("café bob"))))
        #expect(matches(.compare(name, .equal, .string("CAFÉ BOB"))))
        #expect(!matches(.compare(name, .equal, .string("cafe bob"))), "diacritics matter for equality")
        #expect(!matches(.compare(name, .notEqual, .string("CAFÉ BOB"))))
        #expect(matches(.compare(name, .notEqual, .string("x"))))
        #expect(matches(.compare(name, .less, .string("D"))))
        #expect(matches(.compare(name, .less, .string("a"))), "ordering is by code point, case-sensitive: 'C' < 'a'")
        #expect(!matches(.compare(name, .less, .string("B"))))
        #expect(matches(.compare(name, .greaterOrEqual, .string("Café Bob"))))
        #expect(matches(.beginsWith(name, "Caf", negated: false)))
        #expect(!matches(.beginsWith(name, "caf", negated: false)), "BEGINSWITH is case-sensitive")
        #expect(matches(.beginsWith(name, "caf", negated: true)))
        #expect(matches(.beginsWith(name, "", negated: false)))
        #expect(matches(.oneOf(name, [.string("x"), .string("CAFÉ bob")], negated: false)))
        #expect(!matches(.oneOf(name, [.string("CAFÉ bob")], negated: true)))
        #expect(matches(.between(name, .string("A"), .string("D"))))
    }

    @Test func numbers() {
        #expect(matches(.compare(age, .equal, .double(30))))
        #expect(matches(.compare(age, .less, .double(30.5))))
        #expect(!matches(.compare(age, .greater, .double(30.0000001))))
        #expect(matches(.compare(price, .greater, .int64(2))))
        #expect(matches(.compare(price, .lessOrEqual, .double(2.5))))
        #expect(matches(.between(age, .int64(30), .int64(30))), "BETWEEN is inclusive")
        #expect(!matches(.between(age, .int64(31), .int64(40))))
        #expect(matches(.oneOf(age, [.int64(1), .double(30)], negated: false)))
        #expect(!matches(.compare(.custom("nan", .double), .notEqual, .int64(1))), "NaN matches nothing")
        #expect(ValueSemantics.order(.int64(Int64.max), .double(9.223372036854775807e18)) == -1, "exact int/double order")
        #expect(ValueSemantics.order(.int64(9_007_199_254_740_993), .double(9_007_199_254_740_992)) == 1)
    }

    @Test func datesReferencesAndSystemFields() {
        let born = FieldKey.custom("born", .timestamp)
        #expect(matches(.compare(born, .equal, .timestamp(date.addingTimeInterval(0.0004)))), "dates compare by millisecond")
        #expect(matches(.compare(born, .less, .timestamp(date.addingTimeInterval(0.001)))))
        #expect(matches(.compare(.system(.createTime), .greaterOrEqual, .timestamp(date))))
        #expect(matches(.compare(.custom("owner", .reference), .equal, .reference(Reference(recordName: "u1")))), "action is ignored")
        #expect(!matches(.compare(.custom("owner", .reference), .equal, .reference(Reference(recordName: "U1")))), "record names are case-sensitive")
        #expect(matches(.compare(.system(.recordID), .equal, .reference(Reference(recordName: "rec-1")))))
        #expect(matches(.compare(.system(.etag), .equal, .string("E1"))))
    }

    @Test func lists() {
        #expect(matches(.listContains(colors, .string("red"), negated: false)), "membership folds case")
        #expect(!matches(.listContains(colors, .string("green"), negated: false)))
        #expect(matches(.listContains(colors, .string("green"), negated: true)))
        #expect(matches(.listContainsAny(colors, [.string("green"), .string("BLUE")], negated: false)))
        #expect(!matches(.listContainsAny(colors, [.string("blue")], negated: true)))
        #expect(matches(.beginsWith(colors, "red", negated: false)), "ANY list BEGINSWITH")
        #expect(!matches(.beginsWith(colors, "Redd", negated: false)))
        #expect(matches(.listContains(.custom("scores", .list(.int64)), .double(2), negated: false)))
        let empty = FieldKey.custom("empty", .list(.string))
        #expect(!matches(.listContains(empty, .string("x"), negated: false)))
        #expect(matches(.listContains(empty, .string("x"), negated: true)), "an empty list is present")
        #expect(!matches(.compare(colors, .equal, .string("red"))), "a scalar comparison never matches a list")
        #expect(!matches(.listContains(name, .string("Café Bob"), negated: false)), "a list term never matches a scalar")
    }

    @Test func missingFieldsMatchNothing() {
        #expect(!matches(.compare(missing, .equal, .string("x"))))
        #expect(!matches(.compare(missing, .notEqual, .string("x"))))
        #expect(!matches(.oneOf(missing, [.string("x")], negated: true)))
        #expect(!matches(.listContains(.custom("missing", .list(.string)), .string("x"), negated: true)))
        #expect(!matches(.listContainsAny(.custom("missing", .list(.string)), [.string("x")], negated: true)))
        #expect(!matches(.beginsWith(missing, "x", negated: true)))
        #expect(!matches(.between(missing, .string("a"), .string("z"))))
        #expect(!matches(.withinDistance(.custom("missing", .location), center: Location(latitude: 0, longitude: 0), kilometres: 1e9, inclusive: true)))
    }

    @Test func tokens() {
        #expect(matches(.tokens(["cafe"], matchAll: false, fields: ["name"])), "case and diacritics folded")
        #expect(matches(.tokens(["zzz", "bob"], matchAll: false, fields: ["name"])))
        #expect(!matches(.tokens(["zzz", "bob"], matchAll: true, fields: ["name"])))
        #expect(matches(.tokens(["bob", "fox"], matchAll: true, fields: ["name", "notes"])), "tokens across fields and string lists")
        #expect(!matches(.tokens(["fox"], matchAll: false, fields: ["name"])), "only the named fields")
        #expect(matches(.tokens(["fox"], matchAll: false, fields: [])), "no schema: every string field")
        #expect(!matches(.tokens(["bo"], matchAll: false, fields: ["name"])), "whole tokens, no prefixes")
        #expect(!matches(.tokens([], matchAll: false, fields: ["name"])))
    }

    @Test func distance() {
        let place = FieldKey.custom("place", .location)
        let here = Location(latitude: 37.331913, longitude: -122.030210)
        #expect(matches(.withinDistance(place, center: here, kilometres: 1, inclusive: false)))
        #expect(!matches(.withinDistance(place, center: Location(latitude: 37.7749, longitude: -122.4194), kilometres: 10, inclusive: false)))
        let exact = Location(latitude: 37.33, longitude: -122.03)
        #expect(!matches(.withinDistance(place, center: exact, kilometres: 0, inclusive: false)))
        #expect(matches(.withinDistance(place, center: exact, kilometres: 0, inclusive: true)))
    }

    @Test func filtersAreConjunctions() {
        #expect(QueryFilter.all.matches(record))
        #expect(!QueryFilter(terms: [.never]).matches(record))
        #expect(QueryFilter(terms: [.compare(age, .equal, .int64(30)), .listContains(colors, .string("blue"), negated: false)]).matches(record))
        #expect(!QueryFilter(terms: [.compare(age, .equal, .int64(30)), .never]).matches(record))
    }

    @Test func compiledListingFormsSelectTheSameRecords() throws {
        let records = [
            TestRecord(fields: ["favoriteColors": .list(.string, [.string("Red")]), "favoriteColor": .string("green")]),
            TestRecord(fields: ["favoriteColors": .list(.string, [.string("blue")]), "favoriteColor": .string("RED")]),
            TestRecord(fields: ["favoriteColor": .string("blue")]),
        ]
        func selected(_ format: String, _ arguments: [PredicateArgument] = []) throws -> [Int] {
            let filter = try compile(format, arguments, schema: itemSchema()).get().filter
            return records.indices.filter { filter.matches(records[$0]) }
        }
        for format in ["ANY favoriteColors = 'red'", "favoriteColors CONTAINS 'red'", "'red' IN favoriteColors"] {
            #expect(try selected(format) == [0], "\(format)")
        }
        #expect(try selected("%K CONTAINS %@", [.key("favoriteColors"), .string("red")]) == [0])
        for format in ["ANY { 'red', 'green' } = favoriteColor", "favoriteColor IN { 'red', 'green' }"] {
            #expect(try selected(format) == [0, 1], "\(format)")
        }
    }
}
