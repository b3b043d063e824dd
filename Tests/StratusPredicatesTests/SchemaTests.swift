import Foundation
import StratusModel
import Testing
@testable import StratusPredicates

/// Checks that need the record type's schema: fields, types, indexes, metadata keys, sorts.
@Suite struct SchemaTests {
    func first(_ format: String, _ arguments: [PredicateArgument] = [], schema: RecordTypeSchema = itemSchema(),
               recordType: String = "Item", sorts: [QuerySort] = []) -> PredicateDiagnostic? {
        diagnostics(format, arguments, schema: schema, recordType: recordType, sorts: sorts).first
    }

    @Test func unknownFieldWithSuggestion() {
        let d = first("colr == 'red' AND favoriteColor == 'x'")
        #expect(d?.code == .unknownField)
        #expect(d?.message == "Unknown field 'colr' in record type 'Item'")
        let typo = first("favoriteColr == 'red'")
        #expect(typo?.message == "Unknown field 'favoriteColr' in record type 'Item'; did you mean 'favoriteColor'?")
        #expect(typo?.range == SourceRange(offset: 0, length: 12))
        #expect(first("Name == 'x'")?.message == "Unknown field 'Name' in record type 'Item'; did you mean 'name'?")
        #expect(first("creationDat > now()")?.message == "Unknown field 'creationDat' in record type 'Item'; did you mean 'creationDate'?")
        #expect(first("name == 'x'") == nil)
    }

    @Test func operatorMustFitTheType() {
        let cases: [(String, PredicateDiagnostic.Code, String, String)] = [
            ("age BEGINSWITH 'x'", .wrongOperatorForType, "BEGINSWITH works on STRING and LIST<STRING> fields; 'age' is INT64", "age"),
            ("owner < %@", .wrongOperatorForType, "< needs a STRING, INT64, DOUBLE or TIMESTAMP field; 'owner' is REFERENCE", "owner"),
            ("scores > 5", .wrongOperatorForType, "> needs a STRING, INT64, DOUBLE or TIMESTAMP field; 'scores' is LIST<INT64>", "scores"),
            ("favoriteColors == 'red'", .listNeedsAny,
             "Field 'favoriteColors' is a list (LIST<STRING>): to test its members write ANY favoriteColors == value, or favoriteColors CONTAINS value", "favoriteColors"),
            ("favoriteColors IN {'red'}", .listNeedsAny,
             "Field 'favoriteColors' is a list (LIST<STRING>): to test its members write ANY favoriteColors IN {...}", "favoriteColors"),
            ("favoriteColors BEGINSWITH 'r'", .listNeedsAny,
             "Field 'favoriteColors' is a list (LIST<STRING>): write ANY favoriteColors BEGINSWITH \"prefix\"", "favoriteColors"),
            ("ANY age == 5", .wrongOperatorForType, "ANY ... = tests list membership, but 'age' is INT64, not a list: write age == value", "age"),
            ("age CONTAINS 5", .wrongOperatorForType, "CONTAINS tests list membership, but 'age' is INT64, not a list: write age == value", "age"),
            ("place == %@", .wrongOperatorForType, "Field 'place' is a LOCATION: query it with distanceToLocation:fromLocation:(place, %@) < radius", "place"),
            ("distanceToLocation:fromLocation:(name, %@) < 1", .wrongOperatorForType,
             "distanceToLocation:fromLocation: needs a LOCATION field; 'name' is STRING", "name"),
            ("data == 'x'", .unqueryableType, "Field 'data' has type BYTES, which CloudKit can't index or query", "data"),
            ("photo == 'x'", .unqueryableType, "Field 'photo' has type ASSET, which CloudKit can't index or query", "photo"),
        ]
        for (format, code, message, part) in cases {
            let arguments: [PredicateArgument] = format.contains("%@")
                ? [format.hasPrefix("owner") ? .reference("r") : .location(latitude: 1, longitude: 1)] : []
            let d = first(format, arguments)
            #expect(d?.code == code, "\(format)")
            #expect(d?.message == message, "\(format)")
            #expect(d?.range == rangeOf(part, in: format), "\(format)")
        }
    }

    @Test func constantsMustFitTheType() {
        let cases: [(String, [PredicateArgument], String, String)] = [
            ("age == 'x'", [], "Field 'age' is INT64, but the value is a string", "'x'"),
            ("name == 5", [], "Field 'name' is STRING, but the value is an integer", "5"),
            ("born > 5", [], "Field 'born' is TIMESTAMP, but the value is an integer; pass a date argument (date:2024-05-01T00:00:00Z), now(), or CAST(seconds, \"NSDate\")", "5"),
            ("owner == 5", [], "Field 'owner' is REFERENCE, but the value is an integer; pass a reference (ref:RECORDNAME) or a record name", "5"),
            ("ANY scores == 'x'", [], "Field 'scores' is INT64, but the value is a string", "'x'"),
            ("creationDate == %@", [.string("x")], "Field '___createTime' is TIMESTAMP, but the value is a string; pass a date argument (date:2024-05-01T00:00:00Z), now(), or CAST(seconds, \"NSDate\")", "%@"),
        ]
        for (format, arguments, message, part) in cases {
            let d = first(format, arguments)
            #expect(d?.code == .typeMismatch, "\(format)")
            #expect(d?.message == message, "\(format)")
            #expect(d?.range == rangeOf(part, in: format), "\(format)")
        }
        // Numbers go either way between INT64 and DOUBLE; record names become references.
        #expect(terms("age == 2.5 AND price == 3", schema: itemSchema())
            == [.compare(.custom("age", .int64), .equal, .double(2.5)), .compare(.custom("price", .double), .equal, .int64(3))])
        #expect(terms("owner == 'rec'", schema: itemSchema())
            == [.compare(.custom("owner", .reference), .equal, .reference(Reference(recordName: "rec")))])
    }

    @Test func indexesWithCloudKitsMessages() {
        let bare = itemSchema(indexes: [])
        #expect(first("name == 'x'", schema: bare)?.message == "Field 'name' is not marked queryable")
        #expect(first("name == 'x'", schema: bare)?.code == .notQueryable)
        #expect(first("ANY favoriteColors == 'x'", schema: bare)?.message == "Field 'favoriteColors' is not marked queryable")
        let queryableOnly = itemSchema(indexes: [.queryable])
        #expect(first("name == 'x'", schema: queryableOnly) == nil)
        for format in ["age < 5", "age BETWEEN {1, 2}", "name BEGINSWITH 'a'"] {
            let d = first(format, schema: queryableOnly)
            #expect(d?.code == .notSortable, "\(format)")
            #expect(d?.message == "Field '\(format.hasPrefix("age") ? "age" : "name")' is not marked sortable", "\(format)")
            #expect(d?.range == SourceRange(offset: 0, length: format.hasPrefix("age") ? 3 : 4))
        }
        var system = RecordTypeSchema.developmentSystemIndexes
        system[.createTime] = [.queryable]
        let schema = RecordTypeSchema(name: "Item", fields: itemSchema().fields, systemIndexes: system)
        #expect(first("creationDate > now()", schema: schema)?.message == "Field '___createTime' is not marked sortable")
        #expect(first("creationDate == now()", schema: schema) == nil)
    }

    @Test func tokenSearchNeedsASearchableField() {
        let notSearchable = itemSchema(indexes: [.queryable, .sortable])
        let d = first("self CONTAINS 'bob'", schema: notSearchable)
        #expect(d?.code == .notSearchable)
        #expect(d?.message == "No field of record type 'Item' is marked searchable: a token search needs at least one SEARCHABLE string field")
        #expect(d?.range == SourceRange(offset: 0, length: 19))
    }

    @Test func truePredicateNeedsRecordNameQueryable() {
        let schema = itemSchema(recordIDQueryable: false)
        let d = first("TRUEPREDICATE", schema: schema)
        #expect(d?.code == .notQueryable)
        #expect(d?.message == "Field 'recordName' is not marked queryable")
        #expect(d?.range == SourceRange(offset: 0, length: 13))
        // A sort gives the query an index to walk.
        #expect(first("TRUEPREDICATE", schema: schema, sorts: [QuerySort("age")]) == nil)
        #expect(first("age > 1", schema: schema) == nil)
        #expect(first("TRUEPREDICATE", schema: itemSchema()) == nil)
    }

    @Test func metadataKeys() {
        let schema = itemSchema()
        let keys: [(String, SystemField)] = [
            ("creationDate", .createTime), ("___createTime", .createTime), ("modificationDate", .modTime),
            ("___modTime", .modTime), ("recordID", .recordID), ("___recordID", .recordID), ("recordName", .recordID),
            ("creatorUserRecordID", .createdBy), ("___createdBy", .createdBy), ("lastModifiedUserRecordID", .modifiedBy),
            ("___modifiedBy", .modifiedBy),
        ]
        for (key, field) in keys {
            let value: PredicateArgument = field.type == .timestamp ? .date(fixedNow) : .reference("r")
            let expected = FieldValue.normalizedArgument(value)
            #expect(terms("\(key) == %@", [value], schema: schema) == [.compare(.system(field), .equal, expected)], "\(key)")
        }
        // parent and share exist but carry no index in a development schema.
        #expect(first("parent == %@", [.reference("p")], schema: schema)?.message == "Field '___parent' is not marked queryable")
    }

    @Test func usersCannotBeQueried() {
        let d = first("TRUEPREDICATE", recordType: "Users")
        #expect(d?.code == .usersType)
        #expect(d?.message == "Records of type 'Users' can't be queried: fetch user records by their record IDs")
        #expect(d?.range == nil)
    }

    @Test func sorts() throws {
        let schema = itemSchema()
        let query = try compile("TRUEPREDICATE", schema: schema, sorts: [QuerySort("age", ascending: false), QuerySort("creationDate")]).get()
        #expect(query.sorts == [SortTerm(key: .custom("age", .int64), ascending: false), SortTerm(key: .system(.createTime), ascending: true)])
        let center = Location(latitude: 1, longitude: 2)
        let near = try compile("TRUEPREDICATE", schema: schema, sorts: [QuerySort("place", distanceFrom: center)]).get()
        #expect(near.sorts == [SortTerm(key: .custom("place", .location), ascending: true, distanceFrom: center)])

        let cases: [(QuerySort, RecordTypeSchema, PredicateDiagnostic.Code, String)] = [
            (QuerySort("agee"), schema, .unknownField, "Unknown field 'agee' in record type 'Item'; did you mean 'age'?"),
            (QuerySort("scores"), schema, .sortType, "Can't sort by 'scores': lists (LIST<INT64>) can't be sorted"),
            (QuerySort("data"), schema, .sortType, "Can't sort by 'data': BYTES fields can't be sorted"),
            (QuerySort("place"), schema, .sortType, "Sort the location field 'place' by distance from a point"),
            (QuerySort("age", distanceFrom: center), schema, .sortType, "Can't sort by distance on 'age': it is INT64, not a LOCATION"),
            (QuerySort("age"), itemSchema(indexes: [.queryable]), .notSortable, "Field 'age' is not marked sortable"),
            (QuerySort("recordID"), schema, .notSortable, "Field '___recordID' is not marked sortable"),
        ]
        for (sort, schema, code, message) in cases {
            let d = first("name == 'x'", schema: schema, sorts: [QuerySort("creationDate"), sort])
            #expect(d?.code == code, "\(sort)")
            #expect(d?.message == message, "\(sort)")
            #expect(d?.sortIndex == 1)
            #expect(d?.range == nil)
        }
        #expect(QuerySort(parsing: "-age") == QuerySort("age", ascending: false))
        #expect(QuerySort(parsing: "age") == QuerySort("age"))
    }

    @Test func withoutSchemaTypesAreInferred() {
        #expect(terms("age > 5 AND ANY tags == 'x' AND name BEGINSWITH 'a' AND ANY colors BEGINSWITH 'b'") == [
            .compare(.custom("age", .int64), .greater, .int64(5)),
            .listContains(.custom("tags", .list(.string)), .string("x"), negated: false),
            .beginsWith(.custom("name", .string), "a", negated: false),
            .beginsWith(.custom("colors", .list(.string)), "b", negated: false),
        ])
        // System keys keep their real types even without a schema.
        #expect(diagnostics("creationDate == 'x'").first?.code == .typeMismatch)
    }
}

extension FieldValue {
    static func normalizedArgument(_ argument: PredicateArgument) -> FieldValue {
        guard case .value(let value) = argument else { fatalError() }
        return value.normalized
    }
}
