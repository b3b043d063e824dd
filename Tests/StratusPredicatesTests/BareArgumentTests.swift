import StratusModel
@testable import StratusPredicates
import Testing

/// A bare `--arg` value is read as the type its specifier implies, as CloudKit's `%d` takes a
/// number; `%@` takes any type, so there the type must be named.
@Suite struct BareArgumentTests {
    @Test func aBareValueTakesTheTypeOfItsSpecifier() throws {
        #expect(try PredicateArgument(parsing: "12", filling: "d") == .value(.int64(12)))
        #expect(try PredicateArgument(parsing: "-7", filling: "lld") == .value(.int64(-7)))
        #expect(try PredicateArgument(parsing: "2.5", filling: "f") == .value(.double(2.5)))
        #expect(try PredicateArgument(parsing: "rating", filling: "K") == .key("rating"))
        // A typed value reads as before, whatever the specifier.
        #expect(try PredicateArgument(parsing: "int:12", filling: "f") == .value(.int64(12)))
        #expect(try PredicateArgument(parsing: "string:12", filling: "@") == .value(.string("12")))
    }

    @Test func aBareValueThatIsNotOfItsTypeOrFillsPercentAtIsRefusedSayingWhy() {
        let notInt = #expect(throws: PredicateArgumentError.self) { try PredicateArgument(parsing: "twelve", filling: "d") }
        #expect(notInt?.message == "int:twelve is not a 64-bit integer")
        let untyped = #expect(throws: PredicateArgumentError.self) { try PredicateArgument(parsing: "12", filling: "@") }
        #expect(untyped?.message.hasPrefix("argument '12' has no type: write TYPE:VALUE") == true)
        let noSpecifier = #expect(throws: PredicateArgumentError.self) { try PredicateArgument(parsing: "12", filling: nil) }
        #expect(noSpecifier?.message.hasPrefix("argument '12' has no type") == true)
    }
}
