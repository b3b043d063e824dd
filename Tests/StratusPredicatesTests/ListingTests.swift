import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

/// CKQuery's sample format strings (Listings 1-8), each accepted, and the equivalent forms of
/// Listings 2 and 3 compiling to the same filter.
@Suite struct ListingTests {
    let schema = itemSchema()

    @Test func listing1MatchesAReference() throws {
        var fields = itemSchema().fields
        fields["employee"] = SchemaField(name: "employee", type: .reference, indexes: [.queryable, .sortable])
        let schema = RecordTypeSchema(name: "Item", fields: fields, systemIndexes: RecordTypeSchema.developmentSystemIndexes)
        let expected: [FilterTerm] = [.compare(.custom("employee", .reference), .equal, .reference(Reference(recordName: "E1")))]
        #expect(terms("employee == %@", [.reference("E1")], schema: schema) == expected)
        // A record name stands for a reference too.
        #expect(terms("employee == %@", [.string("E1")], schema: schema) == expected)
        #expect(terms("employee == %@", [.reference("E1")]) == expected)
    }

    @Test func listing2FormsAreEquivalent() {
        let expected: [FilterTerm] = [.listContains(.custom("favoriteColors", .list(.string)), .string("red"), negated: false)]
        for schema in [Optional(itemSchema()), nil] {
            #expect(terms("ANY favoriteColors = 'red'", schema: schema) == expected)
            #expect(terms("favoriteColors CONTAINS 'red'", schema: schema) == expected)
            #expect(terms("'red' IN favoriteColors", schema: schema) == expected)
            #expect(terms("%K CONTAINS %@", [.key("favoriteColors"), .string("red")], schema: schema) == expected)
            #expect(terms("SOME favoriteColors == %@", [.string("red")], schema: schema) == expected)
        }
    }

    @Test func listing3FormsAreEquivalent() {
        let expected: [FilterTerm] = [.oneOf(.custom("favoriteColor", .string), [.string("red"), .string("green")], negated: false)]
        for schema in [Optional(itemSchema()), nil] {
            #expect(terms("ANY { 'red', 'green' } = favoriteColor", schema: schema) == expected)
            #expect(terms("favoriteColor IN { 'red', 'green' }", schema: schema) == expected)
            #expect(terms("favoriteColor IN %@", [.value(.list(.string, [.string("red"), .string("green")]))], schema: schema) == expected)
            #expect(terms("{'red', 'green'} CONTAINS favoriteColor", schema: schema) == expected)
        }
    }

    @Test func listing4BeginsWith() {
        let expected: [FilterTerm] = [.beginsWith(.custom("favoriteColors", .list(.string)), "red", negated: false)]
        #expect(terms("ANY favoriteColors BEGINSWITH 'red'", schema: schema) == expected)
        #expect(terms("ANY favoriteColors BEGINSWITH %@", [.string("red")], schema: schema) == expected)
        #expect(terms("ANY favoriteColors BEGINSWITH 'red'") == expected)
        #expect(terms("name BEGINSWITH 'Bo'", schema: schema) == [.beginsWith(.custom("name", .string), "Bo", negated: false)])
    }

    @Test func listing5TokenSearch() {
        #expect(terms("self contains 'bob smith'", schema: schema)
            == [.tokens(["bob", "smith"], matchAll: false, fields: ["favoriteColor", "favoriteColors", "name", "title"])])
        #expect(terms("SELF CONTAINS %@", [.string("Bob, the Smith!")]) == [.tokens(["bob", "smith"], matchAll: false, fields: [])])
    }

    @Test func listing6TokensWithAnd() {
        let fields = ["favoriteColor", "favoriteColors", "name", "title"]
        #expect(terms("self contains 'bob' AND self contains 'smith'", schema: schema)
            == [.tokens(["bob"], matchAll: false, fields: fields), .tokens(["smith"], matchAll: false, fields: fields)])
        #expect(terms("ALL tokenize:using:('bob smith', 'cdl') IN allTokens", schema: schema)
            == [.tokens(["bob", "smith"], matchAll: true, fields: fields)])
        #expect(terms("ANY tokenize:using:(%@, 'cdl') IN allTokens", [.string("Café Bob")], schema: schema)
            == [.tokens(["cafe", "bob"], matchAll: false, fields: fields)])
    }

    @Test func listing7Distance() {
        let center = Location(latitude: 37.331913, longitude: -122.030210)
        let expected: [FilterTerm] = [.withinDistance(.custom("place", .location), center: center, kilometres: 10, inclusive: false)]
        let arguments: [PredicateArgument] = [.value(.location(center)), .double(10)]
        #expect(terms("distanceToLocation:fromLocation:(place, %@) < %f", arguments, schema: schema) == expected)
        #expect(terms("distanceToLocation:fromLocation:(place, %@) < %f", arguments) == expected)
        #expect(terms("distanceToLocation:fromLocation:(%@, place) < 10", [.value(.location(center))], schema: schema) == expected)
        #expect(terms("10 > distanceToLocation:fromLocation:(place, %@)", [.value(.location(center))], schema: schema) == expected)
        #expect(terms("distanceToLocation:fromLocation:(place, %@) <= %d", [.value(.location(center)), .int(10)], schema: schema)
            == [.withinDistance(.custom("place", .location), center: center, kilometres: 10, inclusive: true)])
    }

    @Test func listing8TruePredicate() {
        #expect(terms("TRUEPREDICATE", schema: schema) == [])
        #expect(terms("TRUEPREDICATE") == [])
        #expect(terms("FALSEPREDICATE", schema: schema) == [.never])
    }
}
