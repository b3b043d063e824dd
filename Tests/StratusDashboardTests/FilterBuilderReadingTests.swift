import Foundation
@testable import StratusDashboard
import StratusModel
import StratusPredicates
import Testing

/// The builder reads a format string with the predicate language's parser: whatever that parser
/// reads as a plain AND of the builder's conditions becomes rows; anything else says why not.
@Suite struct FilterBuilderReadingTests {
    let fields = BuilderField.fields(for: Fixtures.tripSchema)

    @Test(arguments: [
        ("nights >= 2.50", [BuilderRow(field: "nights", op: .greaterOrEqual, value: "2.50")]),
        ("nights < 1e3", [BuilderRow(field: "nights", op: .less, value: "1e3")]),
        ("(nights > 1 AND nights < 9) AND title BEGINSWITH 'Ky'", [
            BuilderRow(field: "nights", op: .greater, value: "1"), BuilderRow(field: "nights", op: .less, value: "9"),
            BuilderRow(field: "title", op: .beginsWith, value: "Ky"),
        ]),
        ("title IN {'a, b', \"c\"}", [BuilderRow(field: "title", op: .isIn, value: "\"a, b\", c")]),
        ("SELF CONTAINS 'ramen'", [BuilderRow(field: "self", op: .tokens, value: "ramen")]),
        ("startDate <= CAST(86400.5, 'NSDate')", [BuilderRow(field: "startDate", op: .lessOrEqual, value: ISO8601Text.string(Date(timeIntervalSinceReferenceDate: 86400.5)))]),
        ("title == \"旅行 \\\"quoted\\\"\"", [BuilderRow(field: "title", op: .equals, value: "旅行 \"quoted\"")]),
    ])
    func readsWhatTheParserReads(text: String, rows: [BuilderRow]) throws {
        #expect(try FilterBuilder.rows(from: text, fields: fields).get() == rows)
    }

    @Test(arguments: [
        ("nights > ", "expected"),
        ("title == 'open", "string"),
        ("nights > 2 OR nights < 1", "OR is not a builder condition"),
        ("NOT (nights > 2)", "NOT"),
        ("title ENDSWITH 'x'", "ENDSWITH"),
        ("ALL tags == 'x'", "ALL"),
        ("title == %@", "format specifiers"),
        ("nights > 2 AND title == %@", "format specifiers"),
        ("FALSEPREDICATE", "FALSEPREDICATE"),
        ("nights > nights", "'nights' is not a value"),
    ])
    func saysWhyItCannotShowAText(text: String, reason: String) {
        guard case .failure(let error) = FilterBuilder.rows(from: text, fields: fields) else {
            Issue.record("\(text) was read as rows")
            return
        }
        #expect(error.message.contains(reason), "\(text): \(error.message)")
    }

    @Test func everyRowTheBuilderWritesReadsBackTheSame() throws {
        // Each operator the builder offers, on each field it offers it for, with a value of the field's type.
        let samples: [FieldType.BaseType: String] = [.string: "Kyō, \"to\"", .int64: "-4", .double: "2.5", .timestamp: "2001-01-02T00:00:00Z",
                                                      .reference: "trip-1", .location: "35.68,139.76"]
        var checked = 0
        for field in fields {
            for op in FilterOperator.allowed(for: field) {
                let base = field.type.base
                let value: String
                switch op {
                case .isIn, .notIn: value = base == .string ? "a, \"b, c\"" : [samples[base]!, samples[base]!].joined(separator: ", ")
                case .between: value = base == .timestamp ? "2001-01-02T00:00:00Z, 2001-01-03T00:00:00Z" : "1, 5"
                case .near: value = "35.68,139.76; 10"
                case .tokens: value = "ramen station"
                case .beginsWith, .anyBeginsWith: value = "Ky"
                default: value = field.type.isList ? samples[base]! : samples[base] ?? "x"
                }
                let row = BuilderRow(field: field.name, op: op, value: value)
                let text = FilterBuilder.text(for: [row], fields: fields)
                #expect(try FilterBuilder.rows(from: text, fields: fields).get() == [row], "\(text)")
                // The engine's parser reads the same text.
                #expect(throws: Never.self) { try PredicateParser.parse(text) }
                checked += 1
            }
        }
        #expect(checked > 20)
    }
}
