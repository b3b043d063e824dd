import Foundation
import StratusModel

/// The operators the filter builder offers, each only for the field types and indexes
/// CloudKit allows it with.
enum FilterOperator: String, CaseIterable, Hashable, Sendable {
    case equals = "=="
    case notEquals = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case isIn = "IN"
    case notIn = "NOT IN"
    case between = "BETWEEN"
    case contains = "CONTAINS"
    case anyBeginsWith = "ANY BEGINSWITH"
    case tokens = "has tokens"
    case near = "within km of"

    var label: String { rawValue }

    /// What the value cell expects, shown while editing it.
    func valueHint(for type: FieldType) -> String {
        switch self {
        case .isIn, .notIn: return "values separated by commas"
        case .between: return "low, high"
        case .near: return "latitude,longitude; kilometres (37.33,-122.03; 10)"
        case .tokens: return "words that must all appear in a SEARCHABLE string field"
        default: return ValueText.inputHint(FieldType(type.base))
        }
    }

    /// The operators allowed for a field, by its type and indexes.
    static func allowed(for field: BuilderField) -> [FilterOperator] {
        if field.name == BuilderField.tokenSearch.name { return [.tokens] }
        let queryable = field.indexes.contains(.queryable)
        let sortable = field.indexes.contains(.sortable)
        var result: [FilterOperator] = []
        if field.type.isList {
            if queryable { result.append(.contains) }
            if field.type.base == .string, queryable || sortable { result.append(.anyBeginsWith) }
            return result
        }
        switch field.type.base {
        case .string:
            if queryable { result += [.equals, .notEquals, .isIn, .notIn] }
            if sortable { result += [.beginsWith, .less, .lessOrEqual, .greater, .greaterOrEqual] }
        case .int64, .double, .timestamp:
            if queryable { result += [.equals, .notEquals, .isIn, .notIn] }
            if sortable { result += [.less, .lessOrEqual, .greater, .greaterOrEqual, .between] }
        case .reference:
            if queryable { result += [.equals, .notEquals, .isIn, .notIn] }
        case .location:
            if queryable { result.append(.near) }
        case .bytes, .asset:
            break
        }
        return result
    }
}

/// A field the builder can filter on: custom fields with an index, the two date system
/// fields, and full-text search over SEARCHABLE fields (`self`).
typealias BuilderField = SchemaField

extension SchemaField {
    /// `self CONTAINS "words"`: token search over the SEARCHABLE string fields.
    static let tokenSearch = BuilderField(name: "self", type: .string, indexes: [.searchable])

    /// The fields of a record type the builder offers, in the order of its field picker.
    static func fields(for schema: RecordTypeSchema?) -> [BuilderField] {
        guard let schema else { return [] }
        var result: [BuilderField] = []
        for field in schema.sortedFields where !field.indexes.intersection([.queryable, .sortable]).isEmpty {
            let candidate = BuilderField(name: field.name, type: field.type, indexes: field.indexes)
            if !FilterOperator.allowed(for: candidate).isEmpty { result.append(candidate) }
        }
        for system in [SystemField.createTime, .modTime] {
            let indexes = schema.systemIndexes[system] ?? []
            if !indexes.intersection([.queryable, .sortable]).isEmpty {
                result.append(BuilderField(name: system.predicateKey, type: system.type, indexes: indexes))
            }
        }
        if schema.fields.values.contains(where: { $0.isSearchable }) { result.append(.tokenSearch) }
        return result
    }
}

/// One condition of the builder: field, operator, value (as typed).
struct BuilderRow: Hashable, Sendable {
    var field: String
    var op: FilterOperator
    var value: String

    init(field: String, op: FilterOperator, value: String) {
        self.field = field
        self.op = op
        self.value = value
    }
}

/// Turns builder rows into a format string and, when the text is a plain AND of conditions the
/// builder knows, a format string back into rows (read by the predicate language's own parser,
/// ``FilterBuilder/rows(from:fields:)``): the two views of the filter editor.
enum FilterBuilder {
    /// The format string for `rows` (conditions joined by AND); empty for no rows.
    static func text(for rows: [BuilderRow], fields: [BuilderField]) -> String {
        rows.map { clause(for: $0, fields: fields) }.joined(separator: " AND ")
    }

    static func clause(for row: BuilderRow, fields: [BuilderField]) -> String {
        let type = fields.first { $0.name == row.field }?.type ?? .string
        let base = type.base
        let key = row.field
        func list() -> String {
            let items = splitList(row.value)
            return "{" + items.map { ValueText.literal($0, base: base) }.joined(separator: ", ") + "}"
        }
        switch row.op {
        case .equals, .notEquals, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return "\(key) \(row.op.rawValue) \(ValueText.literal(row.value, base: base))"
        case .beginsWith:
            return "\(key) BEGINSWITH \(ValueText.quoted(row.value))"
        case .isIn:
            return "\(key) IN \(list())"
        case .notIn:
            return "NOT (\(key) IN \(list()))"
        case .between:
            return "\(key) BETWEEN \(list())"
        case .contains:
            return "\(key) CONTAINS \(ValueText.literal(row.value, base: base))"
        case .anyBeginsWith:
            return "ANY \(key) BEGINSWITH \(ValueText.quoted(row.value))"
        case .tokens:
            return "self CONTAINS \(ValueText.quoted(row.value))"
        case .near:
            let parts = row.value.split(separator: ";", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let place = parts.first ?? ""
            let radius = parts.count > 1 ? parts[1] : "1"
            return "distanceToLocation:fromLocation:(\(key), \(ValueText.literal(place, base: .location))) < \(radius)"
        }
    }

    /// Items of a comma-separated value; quoted items may hold commas.
    static func splitList(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || !items.isEmpty { items.append(last) }
        return items
    }
}

struct BuilderParseError: Error, Hashable, Sendable {
    var message: String
}

/// `2024-05-01T00:00:00Z` (seconds precision) for builder values.
enum ISO8601Text {
    static func string(_ date: Date) -> String {
        ValueText.timestamp(date).replacingOccurrences(of: " ", with: "T")
    }
}
