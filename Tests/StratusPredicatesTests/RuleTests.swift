import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

/// Each CloudKit rule: one refused case (code, message, range) and one accepted case.
@Suite struct RuleTests {
    struct Refusal: CustomStringConvertible, Sendable {
        var format: String
        var arguments: [PredicateArgument] = []
        var schema: Bool = false
        var code: PredicateDiagnostic.Code
        var message: String
        /// The offending text; nil when the diagnostic has no range.
        var part: String?
        var occurrence = 1
        var description: String { format }
    }

    static let refusals: [Refusal] = [
        Refusal(format: "favoriteColor == 'red' OR favoriteColor == 'green'", code: .orOperator,
                message: #"CloudKit doesn't support OR: to match one of several values write favoriteColor IN {"red", "green"}"#, part: "OR"),
        Refusal(format: "a == 1 || b == 2", code: .orOperator,
                message: "CloudKit doesn't support OR: to match one field against several values use IN {...}; otherwise run one query per alternative and merge the results", part: "||"),
        Refusal(format: "ALL scores > 5", code: .allModifier,
                message: "CloudKit doesn't support ALL: use ANY (or SOME) for list membership", part: "ALL"),
        Refusal(format: "NONE scores == 5", code: .noneModifier,
                message: "CloudKit doesn't support NONE: write NOT (ANY ...) instead", part: "NONE"),
        Refusal(format: "ANY scores > 5", code: .anyModifierOperator,
                message: "ANY works only with =, IN, CONTAINS and BEGINSWITH in CloudKit", part: ">"),
        Refusal(format: "name ENDSWITH 'x'", code: .unsupportedOperator,
                message: "CloudKit doesn't support ENDSWITH: among string operators CloudKit has only BEGINSWITH (and token search with self CONTAINS)", part: "ENDSWITH"),
        Refusal(format: "name LIKE 'a*'", code: .unsupportedOperator,
                message: "CloudKit doesn't support LIKE: among string operators CloudKit has only BEGINSWITH (and token search with self CONTAINS)", part: "LIKE"),
        Refusal(format: "name MATCHES '^a'", code: .unsupportedOperator,
                message: "CloudKit doesn't support MATCHES: among string operators CloudKit has only BEGINSWITH (and token search with self CONTAINS)", part: "MATCHES"),
        Refusal(format: "file UTI-CONFORMS-TO 'public.image'", code: .unsupportedOperator,
                message: "CloudKit doesn't support UTI-CONFORMS-TO", part: "UTI-CONFORMS-TO"),
        Refusal(format: "name CONTAINS 'bo'", schema: true, code: .substringContains,
                message: "CONTAINS on the string field 'name' would be a substring test, which CloudKit doesn't support: use BEGINSWITH, or self CONTAINS 'word' for a token search", part: "name"),
        Refusal(format: "'bob' CONTAINS name", code: .substringContains,
                message: "CloudKit doesn't support substring tests: CONTAINS tests list membership, and self CONTAINS 'word' searches tokens", part: "CONTAINS"),
        Refusal(format: "owner.name == 'x'", code: .keyPath,
                message: "CloudKit can't follow key paths into related records ('owner.name'): query the related record type, or copy the value into this record", part: "owner.name"),
        Refusal(format: "items.@count > 2", code: .collectionOperator,
                message: "Collection operators such as @count aren't supported by CloudKit: store the value you need in a field of its own", part: "items.@count"),
        Refusal(format: "@count == 2", code: .collectionOperator,
                message: "Collection operators such as @count aren't supported by CloudKit: store the value you need in a field of its own", part: "@count"),
        Refusal(format: "SUBQUERY(items, $x, $x.a == 1).@count > 0", code: .subquery,
                message: "CloudKit doesn't support SUBQUERY: query the related record type separately", part: "SUBQUERY(items, $x, $x.a == 1)"),
        Refusal(format: "FUNCTION(SELF, 'foo', 1) == 2", code: .unsupportedFunction,
                message: "CloudKit can't call methods with FUNCTION(...): compute the value first and pass it as an argument", part: "FUNCTION(SELF, 'foo', 1)"),
        Refusal(format: "age == sum({1, 2})", code: .unsupportedFunction,
                message: "CloudKit supports only the functions now(), distanceToLocation:fromLocation: and tokenize:using:; sum isn't one", part: "sum({1, 2})"),
        Refusal(format: "age == CAST('5', 'NSNumber')", code: .castType,
                message: "CloudKit takes CAST only to turn seconds since 2001 into a date: CAST(736214400, \"NSDate\")", part: "CAST('5', 'NSNumber')"),
        Refusal(format: "age == 1 + 2", code: .arithmetic,
                message: "CloudKit doesn't evaluate arithmetic or bitwise operators: compute the value first and pass it as an argument", part: "1 + 2"),
        Refusal(format: "scores[FIRST] == 1", code: .indexExpression,
                message: "CloudKit doesn't support indexing ([FIRST], [LAST], [SIZE], [n]) in predicates", part: "scores[FIRST]"),
        Refusal(format: "age == $limit", code: .variable,
                message: "CloudKit doesn't substitute variables ($limit): pass the value as an argument with %@", part: "$limit"),
        Refusal(format: "NOT (age == 1 AND name == 'x')", code: .notAroundAnd,
                message: "CloudKit can't negate an AND (NOT (a AND b) would need OR): negate the single conditions instead, or run separate queries", part: "NOT"),
        Refusal(format: "NOT self CONTAINS 'bob'", code: .notAroundTokens,
                message: "CloudKit doesn't support NOT around a token search (self CONTAINS ...)", part: "NOT"),
        Refusal(format: "NOT distanceToLocation:fromLocation:(place, %@) < 5", arguments: [.location(latitude: 1, longitude: 2)],
                code: .notAroundDistance, message: "CloudKit doesn't support NOT with distanceToLocation:fromLocation:", part: "NOT"),
        Refusal(format: "NOT age BETWEEN {1, 5}", code: .notAroundBetween,
                message: "CloudKit doesn't support NOT around BETWEEN: use two comparisons, < low and > high, in separate queries", part: "NOT"),
        Refusal(format: "name == nil", code: .nullValue,
                message: "CloudKit can't compare with nil: there are no NULL comparisons; keep a field with a sentinel value (such as 0 or \"\") and query that", part: "nil"),
        Refusal(format: "name == %@", arguments: [.value(.bytes(Data([1, 2])))], code: .unsupportedValueType,
                message: "CloudKit predicates compare strings, numbers, dates, lists, references and locations; bytes can't be compared", part: "%@"),
        Refusal(format: "age == price", code: .twoFields,
                message: "CloudKit compares a field with a constant, not two fields with each other", part: "age == price"),
        Refusal(format: "%K == %K", arguments: [.key("age"), .key("price")], code: .twoFields,
                message: "CloudKit compares a field with a constant, not two fields with each other", part: "%K == %K"),
        Refusal(format: "1 == 1", code: .twoConstants,
                message: "This compares two constants; CloudKit compares a field with a constant (a reserved word such as NO or FIRST used as a field name needs a #, as in #no)", part: "1 == 1"),
        Refusal(format: "name ==[c] 'x'", code: .comparisonOptions,
                message: "CloudKit takes no comparison options ([c]): string equality is already case-insensitive and BEGINSWITH case-sensitive", part: "[c]"),
        Refusal(format: "name BEGINSWITH[cd] 'x'", code: .comparisonOptions,
                message: "CloudKit takes no comparison options ([cd]): string equality is already case-insensitive and BEGINSWITH case-sensitive", part: "[cd]"),
        Refusal(format: "distanceToLocation:fromLocation:(place, %@) > 5", arguments: [.location(latitude: 1, longitude: 2)],
                code: .distanceOutside, message: "CloudKit finds only locations inside a circle: compare distanceToLocation:fromLocation: with < radius (there is no 'farther than')", part: ">"),
        Refusal(format: "distanceToLocation:fromLocation:(place, %@) == 5", arguments: [.location(latitude: 1, longitude: 2)],
                code: .distanceShape, message: "distanceToLocation:fromLocation:(field, location) must be compared with < radius (kilometres)", part: "=="),
        Refusal(format: "distanceToLocation:fromLocation:(place, %@) < 5", arguments: [.string("Cupertino")],
                code: .distanceLocation, message: "distanceToLocation:fromLocation: needs a location to measure from (a location argument, location:LAT,LON)", part: "%@"),
        Refusal(format: "distanceToLocation:fromLocation:(place, %@) < -1", arguments: [.location(latitude: 1, longitude: 2)],
                code: .distanceShape, message: "The radius must be a non-negative number of kilometres", part: "-1"),
        Refusal(format: "distanceToLocation:fromLocation:(place, %@) < 1", arguments: [.location(latitude: 100, longitude: 2)],
                code: .invalidLocation, message: "The location is off the Earth (latitude -90...90, longitude -180...180)", part: "%@"),
        Refusal(format: "visits CONTAINS %@", arguments: [.location(latitude: 1e300, longitude: 2)],
                code: .invalidLocation, message: "The location is off the Earth (latitude -90...90, longitude -180...180)", part: "%@"),
        Refusal(format: "self == 'bob'", code: .selfMisuse,
                message: "self stands for the whole record and works only in a token search: self CONTAINS \"words\"", part: "self"),
        Refusal(format: "self CONTAINS 5", code: .selfMisuse, message: "self CONTAINS needs a string of words to search for", part: "5"),
        Refusal(format: "self CONTAINS 'the of and'", code: .emptyTokenSearch,
                message: "The search text has no words CloudKit searches for (stop words such as 'the' and punctuation are ignored)", part: "'the of and'"),
        Refusal(format: "ANY tokenize:using:('bob', 'cd') IN allTokens", code: .tokenizeShape,
                message: "tokenize:using: needs the options \"cdl\" (case- and diacritic-insensitive, locale-aware), as CloudKit requires", part: "'cd'"),
        Refusal(format: "tokenize:using:('bob', 'cdl') == name", code: .tokenizeShape,
                message: "tokenize:using: works only as ANY tokenize:using:(\"words\", \"cdl\") IN allTokens (any word) or ALL tokenize:using:(\"words\", \"cdl\") IN allTokens (every word)",
                part: "tokenize:using:('bob', 'cdl') == name"),
        Refusal(format: "age BETWEEN {1, 2, 3}", code: .betweenShape,
                message: "BETWEEN needs exactly two values: age BETWEEN {low, high}", part: "{1, 2, 3}"),
        Refusal(format: "age == {1, 2}", code: .listValue,
                message: "This compares the field 'age' with a list: to match any of several values use age IN {...}", part: "{1, 2}"),
        Refusal(format: "ANY favoriteColors = {'a', 'b'}", code: .listValue,
                message: "ANY favoriteColors = takes one value; to match any of several write ANY favoriteColors IN {...}", part: "{'a', 'b'}"),
        Refusal(format: "age IN 5", code: .listValue,
                message: "IN needs a list on its right: age IN {a, b} or a list argument", part: "5"),
        Refusal(format: "age IN {1, 'x'}", code: .mixedList,
                message: "A list's values must all have one type (CloudKit lists are homogeneous)", part: "{1, 'x'}"),
        Refusal(format: "age IN {1, age}", code: .listValue,
                message: "A {...} list may only hold constant values, not fields or functions", part: "age", occurrence: 2),
        Refusal(format: "'x' BEGINSWITH name", code: .operandOrder,
                message: "BEGINSWITH needs the field on its left: name BEGINSWITH \"prefix\"", part: "BEGINSWITH"),
        Refusal(format: "name BEGINSWITH 5", code: .typeMismatch, message: "BEGINSWITH needs a string to compare with", part: "5"),
        Refusal(format: "ANYKEY == 1", code: .unsupportedExpression,
                message: "CloudKit doesn't support ANYKEY: name the field to compare", part: "ANYKEY"),
    ]

    @Test(arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let found = diagnostics(refusal.format, refusal.arguments, schema: refusal.schema ? itemSchema() : nil)
        let diagnostic = try #require(found.first { $0.code == refusal.code }, "\(found)")
        #expect(diagnostic.message == refusal.message)
        let expectedRange = refusal.part.map { rangeOf($0, in: refusal.format, occurrence: refusal.occurrence) }
        #expect(diagnostic.range == expectedRange)
        if case .success = compile(refusal.format, refusal.arguments, schema: refusal.schema ? itemSchema() : nil) {
            Issue.record("compiled although refused")
        }
    }

    static let acceptances: [(String, [PredicateArgument], [FilterTerm])] = [
        ("favoriteColor IN {'red', 'green'}", [], [.oneOf(.custom("favoriteColor", .string), [.string("red"), .string("green")], negated: false)]),
        ("age == 1 AND price > 2.5 && name != 'x'", [], [
            .compare(.custom("age", .int64), .equal, .int64(1)), .compare(.custom("price", .double), .greater, .double(2.5)),
            .compare(.custom("name", .string), .notEqual, .string("x")),
        ]),
        ("ANY scores == 5", [], [.listContains(.custom("scores", .list(.int64)), .int64(5), negated: false)]),
        ("NOT age == 1", [], [.compare(.custom("age", .int64), .notEqual, .int64(1))]),
        ("NOT age < 5", [], [.compare(.custom("age", .int64), .greaterOrEqual, .int64(5))]),
        ("NOT (5 < age)", [], [.compare(.custom("age", .int64), .lessOrEqual, .int64(5))]),
        ("NOT (favoriteColor IN {'red'})", [], [.oneOf(.custom("favoriteColor", .string), [.string("red")], negated: true)]),
        ("NOT favoriteColors CONTAINS 'red'", [], [.listContains(.custom("favoriteColors", .list(.string)), .string("red"), negated: true)]),
        ("NOT name BEGINSWITH 'a'", [], [.beginsWith(.custom("name", .string), "a", negated: true)]),
        ("ANY scores IN {1, 2}", [], [.listContainsAny(.custom("scores", .list(.int64)), [.int64(1), .int64(2)], negated: false)]),
        ("NOT NOT age == 1", [], [.compare(.custom("age", .int64), .equal, .int64(1))]),
        ("NOT FALSEPREDICATE", [], []),
        ("NOT TRUEPREDICATE", [], [.never]),
        ("age BETWEEN {1, 5}", [], [.between(.custom("age", .int64), .int64(1), .int64(5))]),
        ("age BETWEEN %@", [.value(.list(.int64, [.int64(1), .int64(5)]))], [.between(.custom("age", .int64), .int64(1), .int64(5))]),
        ("age == TRUE", [], [.compare(.custom("age", .int64), .equal, .int64(1))]),
        ("age < -3", [], [.compare(.custom("age", .int64), .less, .int64(-3))]),
        ("price >= -(2.5)", [], [.compare(.custom("price", .double), .greaterOrEqual, .double(-2.5))]),
        ("5 > age", [], [.compare(.custom("age", .int64), .less, .int64(5))]),
        ("creationDate > now()", [], [.compare(.system(.createTime), .greater, .timestamp(fixedNow))]),
        ("modificationDate < CAST(0, 'NSDate')", [], [.compare(.system(.modTime), .less, .timestamp(Date(timeIntervalSinceReferenceDate: 0)))]),
        ("recordID == %@", [.string("r1")], [.compare(.system(.recordID), .equal, .reference(Reference(recordName: "r1")))]),
        ("___createdBy == %@", [.reference("u1")], [.compare(.system(.createdBy), .equal, .reference(Reference(recordName: "u1")))]),
        ("creatorUserRecordID == %@", [.reference("u1")], [.compare(.system(.createdBy), .equal, .reference(Reference(recordName: "u1")))]),
        ("lastModifiedUserRecordID != %@", [.reference("u1")], [.compare(.system(.modifiedBy), .notEqual, .reference(Reference(recordName: "u1")))]),
        ("name == 'a' AND self CONTAINS 'b'", [], [
            .compare(.custom("name", .string), .equal, .string("a")), .tokens(["b"], matchAll: false, fields: []),
        ]),
    ]

    @Test func accepted() {
        for (format, arguments, expected) in Self.acceptances {
            let result = compile(format, arguments)
            switch result {
            case .success(let query): #expect(query.filter.terms == expected, "\(format)")
            case .failure(let problems): Issue.record("\(format): \(problems)")
            }
        }
    }

    @Test func reportsEveryProblemSortedByPosition() {
        let format = "name ENDSWITH 'x' AND age == nil AND ALL scores == 1 AND owner.name == 'y'"
        let found = diagnostics(format)
        #expect(found.map(\.code) == [.unsupportedOperator, .nullValue, .allModifier, .keyPath])
        #expect(found.map { $0.range!.offset } == found.map { $0.range!.offset }.sorted())
    }

    @Test func refusedPredicatesStillExposeTreeAndCanonicalForm() {
        let analysis = PredicateCompiler.analyze(format: "name endswith 'x' or age = 1", recordType: "Item", now: fixedNow)
        #expect(analysis.tree != nil)
        #expect(analysis.syntaxError == nil)
        #expect(analysis.canonical == #"name ENDSWITH "x" OR age == 1"#)
        #expect(analysis.diagnostics.map(\.code) == [.unsupportedOperator, .orOperator])
        #expect(!analysis.isValid)
        let broken = PredicateCompiler.analyze(format: "name ==", recordType: "Item", now: fixedNow)
        #expect(broken.tree == nil)
        #expect(broken.syntaxError?.range == SourceRange(offset: 7, length: 0))
        #expect(broken.diagnostics.map(\.code) == [.syntax])
    }

    @Test func unboundArgumentsStillGetChecked() {
        let analysis = PredicateCompiler.analyze(format: "name == %@ AND colr == 1 OR a == 2", recordType: "Item", schema: itemSchema(), now: fixedNow)
        #expect(analysis.diagnostics.map(\.code) == [.missingArgument, .unknownField, .orOperator, .unknownField])
        #expect(analysis.canonical == "(name == %@ AND colr == 1) OR a == 2")
        #expect(analysis.tree != nil)
        #expect(analysis.query == nil)
    }
}
