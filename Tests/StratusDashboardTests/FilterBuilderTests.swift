import Foundation
@testable import StratusDashboard
import StratusModel
import Testing

@Suite struct FilterBuilderTests {
    let fields = BuilderField.fields(for: Fixtures.tripSchema)

    @Test func offersOnlyIndexedFieldsAndAllowedOperators() {
        let names = fields.map(\.name)
        #expect(names.contains("title"))
        #expect(!names.contains("cover"))  // assets have no index
        #expect(names.contains("creationDate"))
        #expect(names.last == "self")
        let tags = fields.first { $0.name == "tags" }!
        #expect(FilterOperator.allowed(for: tags) == [.contains, .anyBeginsWith])
        let destination = fields.first { $0.name == "destination" }!
        #expect(FilterOperator.allowed(for: destination) == [.near])
        let queryableOnly = BuilderField(name: "code", type: .string, indexes: [.queryable])
        #expect(!FilterOperator.allowed(for: queryableOnly).contains(.beginsWith))
        #expect(!FilterOperator.allowed(for: queryableOnly).contains(.less))
    }

    @Test func writesTextForEveryOperator() {
        let rows = [
            BuilderRow(field: "title", op: .beginsWith, value: "Qu\"ote"),
            BuilderRow(field: "nights", op: .between, value: "2, 5"),
            BuilderRow(field: "startDate", op: .greater, value: "2001-01-02T00:00:00Z"),
            BuilderRow(field: "title", op: .notIn, value: "a, \"b, c\""),
            BuilderRow(field: "tags", op: .contains, value: "雪"),
            BuilderRow(field: "tags", op: .anyBeginsWith, value: "ra"),
            BuilderRow(field: "self", op: .tokens, value: "ramen station"),
            BuilderRow(field: "destination", op: .near, value: "35.68,139.76; 10"),
        ]
        let text = FilterBuilder.text(for: rows, fields: fields)
        #expect(text == """
            title BEGINSWITH "Qu\\"ote" AND nights BETWEEN {2, 5} AND startDate > CAST(86400, "NSDate") AND \
            NOT (title IN {"a", "b, c"}) AND tags CONTAINS "雪" AND ANY tags BEGINSWITH "ra" AND self CONTAINS "ramen station" AND \
            distanceToLocation:fromLocation:(destination, CAST("35.68,139.76", "CLLocation")) < 10
            """)
        // And back: the same rows.
        let parsed = try? FilterBuilder.rows(from: text, fields: fields).get()
        #expect(parsed == rows)
    }

    @Test func refusesWhatTheBuilderCannotShow() {
        if case .failure(let error) = FilterBuilder.rows(from: "title == \"a\" OR nights > 2", fields: fields) {
            #expect(error.message.contains("OR"))
        } else {
            Issue.record("OR accepted")
        }
        if case .failure(let error) = FilterBuilder.rows(from: "price > 2", fields: fields) {
            #expect(error.message.contains("price"))
        } else {
            Issue.record("unknown field accepted")
        }
        #expect((try? FilterBuilder.rows(from: "", fields: fields).get()) == [])
        #expect((try? FilterBuilder.rows(from: "TRUEPREDICATE", fields: fields).get()) == [])
        #expect((try? FilterBuilder.rows(from: "nights = -3 && title <> 'x'", fields: fields).get())
                == [BuilderRow(field: "nights", op: .equals, value: "-3"), BuilderRow(field: "title", op: .notEquals, value: "x")])
    }
}

@Suite struct ValueTextTests {
    @Test func parsesWhatPeopleTypePerType() throws {
        #expect(try ValueText.parse("42", as: .int64).get() == .int64(42))
        #expect(try ValueText.parse("2.5", as: .double).get() == .double(2.5))
        #expect(try ValueText.parse("2024-05-01", as: .timestamp).get() == .timestamp(Date(timeIntervalSince1970: 1_714_521_600)))
        #expect(try ValueText.parse("trip-1 DELETE_SELF", as: .reference).get() == .reference(Reference(recordName: "trip-1", action: .deleteSelf)))
        #expect(try ValueText.parse("35.5,139.25", as: .location).get() == .location(Location(latitude: 35.5, longitude: 139.25)))
        #expect(try ValueText.parse("[\"a, b\", \"雪\"]", as: .list(.string)).get() == .list(.string, [.string("a, b"), .string("雪")]))
        #expect(try ValueText.parse("1, 2,3", as: .list(.int64)).get() == .list(.int64, [.int64(1), .int64(2), .int64(3)]))
        #expect(try ValueText.parse("", as: .int64).get() == nil)
        #expect(try ValueText.parse("  ", as: .string).get() == .string("  "))
        if case .failure(let error) = ValueText.parse("1, x", as: .list(.int64)) {
            #expect(error.message == "item 2: 'x' is not a whole number")
        } else {
            Issue.record("bad list accepted")
        }
        if case .success = ValueText.parse("100,0", as: .location) { Issue.record("latitude 100 accepted") }
    }

    @Test func editableTextRoundTrips() throws {
        let values: [FieldValue] = [
            .string("東京 🗼"), .int64(-7), .double(0.25), .timestamp(Date(timeIntervalSince1970: 1_714_521_600.5)),
            .reference(Reference(recordName: "r", action: .deleteSelf)), .location(Location(latitude: 1.5, longitude: -2.25)),
            .list(.string, [.string("a,b"), .string("c")]), .list(.double, [.double(1.5)]),
        ]
        for value in values {
            #expect(try ValueText.parse(ValueText.editable(value), as: value.type).get() == value)
        }
    }

    @Test func timestampsDisplayInUTC() {
        #expect(ValueText.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00Z")
        #expect(ValueText.timestamp(Date(timeIntervalSince1970: 1_767_225_600 + 3661)) == "2026-01-01 01:01:01Z")
        #expect(ValueText.timestamp(Date(timeIntervalSince1970: -1)) == "1969-12-31 23:59:59Z")
    }

    @Test func errorColumnsCountCodePointsAndWidths() {
        // "京都 🍵 OR": 京(2) 都(2) space 🍵(2) space -> OR at column 8, code point 5.
        #expect(TextField.columns(of: "京都 🍵 OR", scalarOffset: 5, length: 2) == 8..<10)
        // A flag is two code points, one character of width 2.
        #expect(TextField.columns(of: "🇯🇵x", scalarOffset: 2, length: 1) == 2..<3)
        // Past the end: one column after the text.
        #expect(TextField.columns(of: "ab", scalarOffset: 2, length: 0) == 2..<3)
    }

    @Test func textFieldEditsByCharacter() {
        var field = TextField("京都")
        field.handle(.backspace)
        #expect(field.text == "京")
        field.handle(.home)
        field.insert("🍵")
        #expect(field.text == "🍵京")
        #expect(field.cursorColumn == 2)
        field.handle(.end)
        field.insert(" a b")
        field.handle(.ctrl("w"))
        #expect(field.text == "🍵京 a ")
    }
}
