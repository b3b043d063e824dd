import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// CKWS query dictionaries (`{"recordType", "filterBy": [...], "sortBy": [...]}`) as the same
/// checked `Query` a predicate format string is: each filter becomes a predicate term over
/// `%K` and `%@`, so a web client's query meets the same rules and the same errors as one
/// typed in the dashboard or on the command line.
public enum QueryJSON {
    /// A CKWS system field name as the predicate key that names it.
    static let systemFieldKeys: [String: String] = [
        "recordName": "recordID", "___recordID": "recordID", "___recordId": "recordID",
        "createdTimestamp": "creationDate", "___createTime": "creationDate",
        "modifiedTimestamp": "modificationDate", "___modTime": "modificationDate",
        "createdUserRecordName": "creatorUserRecordID", "___createdBy": "creatorUserRecordID",
        "modifiedUserRecordName": "lastModifiedUserRecordID", "___modifiedBy": "lastModifiedUserRecordID",
        "parent": "parent", "___parent": "parent", "share": "share", "___share": "share",
    ]

    /// Reads a CKWS query dictionary. A `fieldValue` sent without a `type` takes the type
    /// `schema` declares for its field (a TIMESTAMP compared with epoch milliseconds, as MistKit
    /// sends dates), as in a record's fields; a string compared with a REFERENCE field is
    /// refused, as iCloud refuses it.
    ///
    /// - Throws: ``RecordJSON/DecodingError`` naming the member (`query.filterBy[1].comparator`).
    public static func decode(_ json: JSONValue, path: String = "query", schema: RecordJSON.SchemaLookup? = nil) throws(RecordJSON.DecodingError) -> Query {
        guard case .object = json else { throw RecordJSON.DecodingError(path: path, message: "must be an object with a recordType") }
        guard let recordType = json["recordType"]?.stringValue else {
            throw RecordJSON.DecodingError(path: "\(path).recordType", message: "missing; a query names one record type")
        }
        let declared = schema?(recordType)?.fields
        var terms: [String] = []
        var arguments: [PredicateArgument] = []
        if let filters = json["filterBy"] {
            guard case .array(let items) = filters else { throw RecordJSON.DecodingError(path: "\(path).filterBy", message: "must be an array of filters") }
            for (index, item) in items.enumerated() {
                let (term, values) = try filter(item, path: "\(path).filterBy[\(index)]", declared: declared)
                terms.append(term)
                arguments += values
            }
        }
        var sorts: [QuerySort] = []
        if let sortBy = json["sortBy"] {
            guard case .array(let items) = sortBy else { throw RecordJSON.DecodingError(path: "\(path).sortBy", message: "must be an array of sorts") }
            for (index, item) in items.enumerated() { sorts.append(try sort(item, path: "\(path).sortBy[\(index)]")) }
        }
        return Query(recordType: recordType, predicateFormat: terms.isEmpty ? "TRUEPREDICATE" : terms.joined(separator: " AND "),
                     arguments: arguments, sortDescriptors: sorts)
    }

    private static func key(_ json: JSONValue, path: String) throws(RecordJSON.DecodingError) -> String {
        if let name = json["fieldName"]?.stringValue { return name }
        if let system = json["systemFieldName"]?.stringValue {
            guard let key = systemFieldKeys[system] else {
                throw RecordJSON.DecodingError(path: "\(path).systemFieldName", message: "unknown system field '\(system)'; use recordName, createdTimestamp, modifiedTimestamp, createdUserRecordName, modifiedUserRecordName, parent or share")
            }
            return key
        }
        throw RecordJSON.DecodingError(path: "\(path).fieldName", message: "missing; name the field (fieldName) or a system field (systemFieldName)")
    }

    /// System fields whose type a typeless `fieldValue` takes.
    private static let systemFieldTypes: [String: FieldType] = ["createdTimestamp": .timestamp, "___createTime": .timestamp,
                                                                "modifiedTimestamp": .timestamp, "___modTime": .timestamp]

    /// The type a filter's typeless `fieldValue` is read as: the field's declared base type, or a
    /// list of it for an array (`IN`, `LIST_CONTAINS_ANY`).
    private static func valueType(of json: JSONValue, field: JSONValue, declared: [String: SchemaField]?) -> FieldType? {
        let type = json["systemFieldName"]?.stringValue.flatMap { systemFieldTypes[$0] }
            ?? json["fieldName"]?.stringValue.flatMap { declared?[$0]?.type }
        guard let type else { return nil }
        if case .array? = field["value"] { return .list(type.base) }
        return FieldType(type.base)
    }

    /// Whether a filter's value of type `given` compares with a field of type `field`: the same
    /// type, or numbers of either kind.
    private static func comparable(_ given: FieldType.BaseType, with field: FieldType.BaseType) -> Bool {
        given == field || (given == .int64 && field == .double) || (given == .double && field == .int64)
    }

    /// How a Web Services client writes a value of `type`.
    private static func advice(for type: FieldType.BaseType) -> String {
        switch type {
        case .timestamp: return "send milliseconds since 1970 or an ISO 8601 date, as {\"value\": 1700000000000, \"type\": \"TIMESTAMP\"}"
        case .reference: return "send {\"value\": {\"recordName\": ...}, \"type\": \"REFERENCE\"}"
        case .location: return "send {\"value\": {\"latitude\": ..., \"longitude\": ...}, \"type\": \"LOCATION\"}"
        default: return "send a value of that type"
        }
    }

    /// One filter as a predicate term and the arguments of its specifiers.
    private static func filter(_ json: JSONValue, path: String, declared: [String: SchemaField]?) throws(RecordJSON.DecodingError) -> (String, [PredicateArgument]) {
        guard let comparator = json["comparator"]?.stringValue?.uppercased() else {
            throw RecordJSON.DecodingError(path: "\(path).comparator", message: "missing")
        }
        guard let field = json["fieldValue"] else { throw RecordJSON.DecodingError(path: "\(path).fieldValue", message: "missing") }
        let expected = valueType(of: json, field: field, declared: declared)
        if let expected, expected.base == .reference, field["type"] == nil, !RecordJSON.coercible(field["value"] ?? .null, to: expected) {
            throw RecordJSON.DecodingError(path: "\(path).fieldValue", message: "could not decode reference object: '\(json["fieldName"]?.stringValue ?? "")' is a REFERENCE field; compare it with {\"value\": {\"recordName\": ...}, \"type\": \"REFERENCE\"}")
        }
        let value = try RecordJSON.decodeField(field, path: "\(path).fieldValue", declared: expected).normalized
        // A prefix search takes a string whatever the field; the checker says what it needs.
        if let expected, !comparator.hasSuffix("BEGINS_WITH"), !comparable(value.type.base, with: expected.base) {
            let name = json["fieldName"]?.stringValue ?? json["systemFieldName"]?.stringValue ?? ""
            throw RecordJSON.DecodingError(path: "\(path).fieldValue", message: "'\(name)' is \(expected.base.rawValue), but the value is \(value.type.base.rawValue); \(advice(for: expected.base))")
        }
        if comparator == "CONTAINS_ALL_TOKENS" || comparator == "CONTAINS_ANY_TOKENS" {
            guard case .string = value else { throw RecordJSON.DecodingError(path: "\(path).fieldValue", message: "token searches take a STRING") }
            let quantifier = comparator == "CONTAINS_ALL_TOKENS" ? "ALL" : "ANY"
            return ("\(quantifier) tokenize:using:(%@, \"cdl\") IN allTokens", [.value(value)])
        }
        let name = try key(json, path: path)
        let keyed: [PredicateArgument] = [.key(name), .value(value)]
        switch comparator {
        case "EQUALS": return ("%K == %@", keyed)
        case "NOT_EQUALS": return ("%K != %@", keyed)
        case "LESS_THAN": return ("%K < %@", keyed)
        case "LESS_THAN_OR_EQUALS": return ("%K <= %@", keyed)
        case "GREATER_THAN": return ("%K > %@", keyed)
        case "GREATER_THAN_OR_EQUALS": return ("%K >= %@", keyed)
        case "BEGINS_WITH": return ("%K BEGINSWITH %@", keyed)
        case "NOT_BEGINS_WITH": return ("NOT (%K BEGINSWITH %@)", keyed)
        case "IN": return ("%K IN %@", keyed)
        case "NOT_IN": return ("NOT (%K IN %@)", keyed)
        case "LIST_CONTAINS": return ("%K CONTAINS %@", keyed)
        case "NOT_LIST_CONTAINS", "LIST_NOT_CONTAINS": return ("NOT (%K CONTAINS %@)", keyed)
        case "LIST_CONTAINS_ANY": return ("ANY %K IN %@", keyed)
        case "NOT_LIST_CONTAINS_ANY", "LIST_NOT_CONTAINS_ANY": return ("NOT (ANY %K IN %@)", keyed)
        case "LIST_MEMBER_BEGINS_WITH": return ("ANY %K BEGINSWITH %@", keyed)
        case "NOT_LIST_MEMBER_BEGINS_WITH": return ("NOT (ANY %K BEGINSWITH %@)", keyed)
        case "LIST_CONTAINS_ALL":
            guard case .list(_, let items) = value, !items.isEmpty else {
                throw RecordJSON.DecodingError(path: "\(path).fieldValue", message: "LIST_CONTAINS_ALL takes a non-empty list (a *_LIST type)")
            }
            let terms = items.map { _ in "%K CONTAINS %@" }.joined(separator: " AND ")
            return ("(\(terms))", items.flatMap { [PredicateArgument.key(name), .value($0)] })
        case "NEAR":
            guard let metres = json["distance"]?.doubleValue, metres.isFinite, metres >= 0 else {
                throw RecordJSON.DecodingError(path: "\(path).distance", message: "NEAR needs a distance in metres")
            }
            return ("distanceToLocation:fromLocation:(%K, %@) < %@", keyed + [.value(.double(metres / 1000))])
        case "NOT_LIST_CONTAINS_ALL":
            throw RecordJSON.DecodingError(path: "\(path).comparator", message: "NOT_LIST_CONTAINS_ALL would negate an AND, which CloudKit's queries cannot express; use NOT_LIST_CONTAINS per value")
        default:
            throw RecordJSON.DecodingError(path: "\(path).comparator", message: "unknown comparator '\(comparator)'")
        }
    }

    private static func sort(_ json: JSONValue, path: String) throws(RecordJSON.DecodingError) -> QuerySort {
        let name = try key(json, path: path)
        var ascending = true
        if let flag = json["ascending"] {
            guard case .bool(let value) = flag else { throw RecordJSON.DecodingError(path: "\(path).ascending", message: "must be true or false") }
            ascending = value
        }
        var centre: Location?
        if let relative = json["relativeLocation"] {
            // The reference's bare `{"latitude", "longitude"}`, or a field's `{"value": {...}}`.
            let field = relative["value"] == nil ? JSONValue.object([("value", relative), ("type", .string("LOCATION"))]) : relative
            guard case .location(let location) = try RecordJSON.decodeField(field, path: "\(path).relativeLocation") else {
                throw RecordJSON.DecodingError(path: "\(path).relativeLocation", message: "must be a LOCATION")
            }
            centre = location
        }
        return QuerySort(name, ascending: ascending, distanceFrom: centre)
    }

    // MARK: - Encoding

    /// The CKWS query dictionary of a checked predicate, as a web client would send it; nil only
    /// for FALSEPREDICATE, which no `filterBy` spells.
    public static func encode(recordType: String, filter: QueryFilter, sorts: [SortTerm]) -> JSONValue? {
        var filters: [JSONValue] = []
        for term in filter.terms {
            if case .between(let key, let low, let high) = term {
                // CKWS has no BETWEEN: both ends, as two filters.
                filters.append(encode(.compare(key, .greaterOrEqual, low))!)
                filters.append(encode(.compare(key, .lessOrEqual, high))!)
                continue
            }
            guard let json = encode(term) else { return nil }
            filters.append(json)
        }
        var members: [(String, JSONValue)] = [("recordType", .string(recordType))]
        if !filters.isEmpty { members.append(("filterBy", .array(filters))) }
        if !sorts.isEmpty {
            members.append(("sortBy", .array(sorts.map { sort in
                var items = fieldKey(sort.key.name)
                items.append(("ascending", .bool(sort.ascending)))
                if let centre = sort.distanceFrom { items.append(("relativeLocation", RecordJSON.encodeField(.location(centre)))) }
                return .object(items)
            })))
        }
        return .object(members)
    }

    private static func encode(_ term: FilterTerm) -> JSONValue? {
        func make(_ comparator: String, _ key: FieldKey?, _ value: FieldValue, extra: [(String, JSONValue)] = []) -> JSONValue {
            .object([("comparator", .string(comparator))] + (key.map { fieldKey($0.name) } ?? [])
                    + [("fieldValue", RecordJSON.encodeField(value))] + extra)
        }
        func list(_ key: FieldKey, _ values: [FieldValue]) -> FieldValue {
            .list(values.first?.type.base ?? key.type.base, values)
        }
        switch term {
        case .compare(let key, let op, let value):
            let names: [ComparisonOperator: String] = [.equal: "EQUALS", .notEqual: "NOT_EQUALS", .less: "LESS_THAN",
                                                       .lessOrEqual: "LESS_THAN_OR_EQUALS", .greater: "GREATER_THAN",
                                                       .greaterOrEqual: "GREATER_THAN_OR_EQUALS"]
            return make(names[op]!, key, value)
        case .oneOf(let key, let values, let negated):
            return make(negated ? "NOT_IN" : "IN", key, list(key, values))
        case .listContains(let key, let value, let negated):
            return make(negated ? "NOT_LIST_CONTAINS" : "LIST_CONTAINS", key, value)
        case .listContainsAny(let key, let values, let negated):
            return make(negated ? "NOT_LIST_CONTAINS_ANY" : "LIST_CONTAINS_ANY", key, list(key, values))
        case .beginsWith(let key, let prefix, let negated):
            let comparator = key.type.isList ? "LIST_MEMBER_BEGINS_WITH" : "BEGINS_WITH"
            return make(negated ? "NOT_" + comparator : comparator, key, .string(prefix))
        case .tokens(let tokens, let matchAll, _):
            return make(matchAll ? "CONTAINS_ALL_TOKENS" : "CONTAINS_ANY_TOKENS", nil, .string(tokens.joined(separator: " ")))
        case .withinDistance(let key, let center, let kilometres, _):
            return make("NEAR", key, .location(center), extra: [("distance", .number(kilometres * 1000))])
        case .between, .never:
            return nil
        }
    }

    private static func fieldKey(_ name: String) -> [(String, JSONValue)] {
        if let system = ckwsSystemNames[name] { return [("systemFieldName", .string(system))] }
        return [("fieldName", .string(name))]
    }

    /// Predicate keys of system fields as CKWS names them.
    private static let ckwsSystemNames: [String: String] = [
        "recordID": "recordName", "___recordID": "recordName",
        "creationDate": "createdTimestamp", "___createTime": "createdTimestamp",
        "modificationDate": "modifiedTimestamp", "___modTime": "modifiedTimestamp",
        "creatorUserRecordID": "createdUserRecordName", "___createdBy": "createdUserRecordName",
        "lastModifiedUserRecordID": "modifiedUserRecordName", "___modifiedBy": "modifiedUserRecordName",
        "parent": "parent", "share": "share",
    ]
}
