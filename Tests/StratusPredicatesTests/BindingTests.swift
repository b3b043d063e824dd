import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

@Suite struct BindingTests {
    func bind(_ format: String, _ arguments: [PredicateArgument]) throws -> (PredicateNode, [PredicateDiagnostic]) {
        PredicateBinder.bind(try parse(format), arguments: arguments, sourceLength: format.unicodeScalars.count)
    }

    @Test func substitutesInOrder() throws {
        let (node, problems) = try bind("%K == %@ AND b > %d AND c < %f", [.key("a"), .string("x"), .int(3), .int(2)])
        #expect(problems.isEmpty)
        #expect(node.canonicalFormat == #"a == "x" AND b > 3 AND c < 2.0"#)
    }

    @Test func keyPathsThroughK() throws {
        let (node, problems) = try bind("%K == 1", [.key("owner.name")])
        #expect(problems.isEmpty)
        #expect(node.canonicalFormat == "owner.name == 1")
        let (reserved, _) = try bind("%K == 1", [.key("size")])
        #expect(reserved.canonicalFormat == "#size == 1")
    }

    @Test func problemsCarryTheSpecifiersRange() throws {
        let format = "a == %@ AND %K == 1 AND c == %d AND d == %@"
        let (_, problems) = try bind(format, [.key("x"), .string("b"), .string("q")])
        #expect(problems.map(\.code) == [.valueArgumentExpected, .keyArgumentExpected, .argumentType, .missingArgument])
        #expect(problems.map(\.range) == [
            rangeOf("%@", in: format), rangeOf("%K", in: format), rangeOf("%d", in: format), rangeOf("%@", in: format, occurrence: 2),
        ])
        #expect(problems[0].message == "%@ needs a value, but argument 1 is the field name 'x'; use %K for field names")
        #expect(problems[1].message == "%K needs a field name (key:NAME), but argument 2 is a value; write key:b")
        #expect(problems[2].message == "%d needs an integer (int:...), but argument 3 is a string")
        #expect(problems[3].message == "no argument for %@ (specifier 4; 3 arguments given)")
    }

    @Test func tooManyArguments() throws {
        let (_, problems) = try bind("a == %@", [.string("x"), .int(1)])
        #expect(problems.map(\.code) == [.extraArgument])
        #expect(problems.first?.message == "2 arguments given, but the format has 1 specifier")
        #expect(problems.first?.range == SourceRange(offset: 7, length: 0))
    }

    @Test func invalidKey() throws {
        let (_, problems) = try bind("%K == 1", [.key("first name")])
        #expect(problems.first?.code == .invalidKeyArgument)
        #expect(problems.first?.message == "'first name' is not a field name, so it can't stand for %K")
    }

    @Test func conversions() throws {
        #expect(try bind("a == %d", [.double(4)]).0.canonicalFormat == "a == 4")
        #expect(try bind("a == %d", [.double(4.5)]).1.first?.code == .argumentType)
        #expect(try bind("a == %s", [.string("x")]).0.canonicalFormat == #"a == "x""#)
        #expect(try bind("a == %lld", [.int(Int64.max)]).0.canonicalFormat == "a == 9223372036854775807")
    }

    @Test func typedArgumentSyntax() throws {
        #expect(try PredicateArgument(parsing: "string:red") == .string("red"))
        #expect(try PredicateArgument(parsing: "string:a:b") == .string("a:b"))
        #expect(try PredicateArgument(parsing: "string:") == .string(""))
        #expect(try PredicateArgument(parsing: "int:5") == .int(5))
        #expect(try PredicateArgument(parsing: "int:-9223372036854775808") == .int(Int64.min))
        #expect(try PredicateArgument(parsing: "double:2.5") == .double(2.5))
        #expect(try PredicateArgument(parsing: "date:2024-05-01T00:00:00Z") == .date(fixedNow))
        #expect(try PredicateArgument(parsing: "date:2024-05-01") == .date(fixedNow))
        #expect(try PredicateArgument(parsing: "date:2024-05-01T02:00:00+02:00") == .date(fixedNow))
        #expect(try PredicateArgument(parsing: "date:2024-05-01T00:00:00.250Z") == .date(fixedNow.addingTimeInterval(0.25)))
        #expect(try PredicateArgument(parsing: "ref:RECORD-1") == .reference("RECORD-1"))
        #expect(try PredicateArgument(parsing: "location:37.33,-122.03") == .location(latitude: 37.33, longitude: -122.03))
        #expect(try PredicateArgument(parsing: "list:[\"red\",\"green\"]") == .value(.list(.string, [.string("red"), .string("green")])))
        #expect(try PredicateArgument(parsing: "list:[1, 2]") == .value(.list(.int64, [.int64(1), .int64(2)])))
        #expect(try PredicateArgument(parsing: "list:[1, 2.5]") == .value(.list(.double, [.double(1), .double(2.5)])))
        #expect(try PredicateArgument(parsing: "list:[]") == .value(.list(.string, [])))
        #expect(try PredicateArgument(parsing: "list:[\"\\u00e9\\n\"]") == .value(.list(.string, [.string("é\n")])))
        #expect(try PredicateArgument(parsing: "key:favoriteColors") == .key("favoriteColors"))
        #expect(try PredicateArgument(parsing: "INT:7") == .int(7))
    }

    @Test(arguments: [
        ("red", "argument 'red' has no type: write TYPE:VALUE, with TYPE one of string, int, double, date, ref, location, list, key"),
        ("number5:1", "unknown argument type 'number5': expected one of string, int, double, date, ref, location, list, key"),
        ("int:5.5", "int:5.5 is not a 64-bit integer"),
        ("int:99999999999999999999", "int:99999999999999999999 is not a 64-bit integer"),
        ("double:abc", "double:abc is not a finite number"),
        ("double:inf", "double:inf is not a finite number"),
        ("date:yesterday", "date:yesterday is not an ISO 8601 date: write 2024-05-01T00:00:00Z, 2024-05-01T09:30:00+02:00 or 2024-05-01"),
        ("date:2024-02-30", "date:2024-02-30 is not an ISO 8601 date: write 2024-05-01T00:00:00Z, 2024-05-01T09:30:00+02:00 or 2024-05-01"),
        ("date:2024-05-01T25:00:00Z", "date:2024-05-01T25:00:00Z is not an ISO 8601 date: write 2024-05-01T00:00:00Z, 2024-05-01T09:30:00+02:00 or 2024-05-01"),
        ("ref:", "ref: needs a record name, as in ref:RECORDNAME"),
        ("location:1", "location:1 is not LATITUDE,LONGITUDE (as in location:37.33,-122.03)"),
        ("location:91,0", "location:91,0 is off the Earth: latitude must be within -90...90 and longitude within -180...180"),
        ("list:[\"a\", 1]", "list:[\"a\", 1] mixes strings and numbers; a CloudKit list has one element type"),
        ("list:[true]", "list:[true] is not a JSON array of strings or numbers: expected a string or a number at character 1"),
        ("list:[1,", "list:[1, is not a JSON array of strings or numbers: expected a value at character 3"),
        ("list:{}", "list:{} is not a JSON array of strings or numbers: expected '[' at character 0"),
        ("key:", "key: needs a field name, as in key:favoriteColors"),
    ])
    func typedArgumentErrors(text: String, message: String) {
        do {
            _ = try PredicateArgument(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message == message)
        }
    }
}
