import Foundation
import StratusModel

/// The operators the filter builder offers, each only for the field types and indexes
/// CloudKit allows it with.
public enum FilterOperator: String, CaseIterable, Hashable, Sendable {
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

    public var label: String { rawValue }

    /// What the value cell expects, shown while editing it.
    public func valueHint(for type: FieldType) -> String {
        switch self {
        case .isIn, .notIn: return "values separated by commas"
        case .between: return "low, high"
        case .near: return "latitude,longitude; kilometres (37.33,-122.03; 10)"
        case .tokens: return "words that must all appear in a SEARCHABLE string field"
        default: return ValueText.inputHint(FieldType(type.base))
        }
    }

    /// The operators allowed for a field, by its type and indexes.
    public static func allowed(for field: BuilderField) -> [FilterOperator] {
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
public typealias BuilderField = SchemaField

extension SchemaField {
    /// `self CONTAINS "words"`: token search over the SEARCHABLE string fields.
    public static let tokenSearch = BuilderField(name: "self", type: .string, indexes: [.searchable])

    /// The fields of a record type the builder offers, in the order of its field picker.
    public static func fields(for schema: RecordTypeSchema?) -> [BuilderField] {
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
public struct BuilderRow: Hashable, Sendable {
    public var field: String
    public var op: FilterOperator
    public var value: String

    public init(field: String, op: FilterOperator, value: String) {
        self.field = field
        self.op = op
        self.value = value
    }
}

/// Turns builder rows into a format string and, when the text is a plain AND of conditions the
/// builder knows, a format string back into rows: the two views of the filter editor.
public enum FilterBuilder {
    /// The format string for `rows` (conditions joined by AND); empty for no rows.
    public static func text(for rows: [BuilderRow], fields: [BuilderField]) -> String {
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

    /// Rows for a format string, or why the builder cannot show it.
    public static func rows(from text: String, fields: [BuilderField]) -> Result<[BuilderRow], BuilderParseError> {
        var tokens: [FilterToken]
        do {
            tokens = try FilterTokenizer.tokenize(text)
        } catch {
            return .failure(error)
        }
        if tokens.isEmpty { return .success([]) }
        if tokens.count == 1, case .word(let word) = tokens[0], word.uppercased() == "TRUEPREDICATE" { return .success([]) }
        var rows: [BuilderRow] = []
        var parser = ClauseParser(tokens: tokens, fields: fields)
        do {
            repeat {
                rows.append(try parser.clause())
            } while parser.skipAnd()
            if !parser.atEnd {
                throw BuilderParseError(message: parser.isOr ? "OR is not a builder condition (CloudKit refuses OR anyway)"
                                                                : "only conditions joined by AND fit the builder")
            }
        } catch let error as BuilderParseError {
            return .failure(error)
        } catch {
            return .failure(BuilderParseError(message: "\(error)"))
        }
        return .success(rows)
    }
}

public struct BuilderParseError: Error, Hashable, Sendable {
    public var message: String
}

enum FilterToken: Hashable {
    case word(String)
    case string(String)
    case number(String)
    case symbol(String)
}

enum FilterTokenizer {
    static func tokenize(_ text: String) throws(BuilderParseError) -> [FilterToken] {
        var tokens: [FilterToken] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "\"" || character == "'" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\", index + 1 < characters.count {
                        let escaped = characters[index + 1]
                        value.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
                        index += 2
                        continue
                    }
                    if next == character {
                        closed = true
                        index += 1
                        break
                    }
                    value.append(next)
                    index += 1
                }
                if !closed { throw BuilderParseError(message: "a string is not closed") }
                tokens.append(.string(value))
            } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber
                                              && !(tokens.last.map(isOperand) ?? false)) {
                var value = String(character)
                index += 1
                while index < characters.count, characters[index].isNumber || characters[index] == "."
                        || characters[index] == "e" || characters[index] == "E" {
                    value.append(characters[index])
                    index += 1
                }
                tokens.append(.number(value))
            } else if character.isLetter || character == "_" || character == "$" {
                var value = ""
                while index < characters.count, characters[index].isLetter || characters[index].isNumber
                        || characters[index] == "_" || characters[index] == ":" || characters[index] == "$" {
                    value.append(characters[index])
                    index += 1
                }
                tokens.append(.word(value))
            } else {
                let two = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
                    tokens.append(.symbol(two))
                    index += 2
                } else if "=<>(){},!".contains(character) {
                    tokens.append(.symbol(String(character)))
                    index += 1
                } else if character == "%" {
                    throw BuilderParseError(message: "format specifiers (%@, %K ...) are edited as text, with their values under Arguments")
                } else {
                    throw BuilderParseError(message: "'\(character)' is not something the builder shows")
                }
            }
        }
        return tokens
    }

    private static func isOperand(_ token: FilterToken) -> Bool {
        switch token {
        case .word(let word): return !["AND", "OR", "NOT", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ANY"].contains(word.uppercased())
        case .string, .number: return true
        case .symbol(let symbol): return symbol == ")" || symbol == "}"
        }
    }
}

private struct ClauseParser {
    var tokens: [FilterToken]
    var position = 0
    let fields: [BuilderField]

    init(tokens: [FilterToken], fields: [BuilderField]) {
        self.tokens = tokens
        self.fields = fields
    }

    var atEnd: Bool { position >= tokens.count }
    var isOr: Bool {
        guard let token = peek() else { return false }
        return token == .symbol("||") || keyword(token) == "OR"
    }

    func peek() -> FilterToken? { position < tokens.count ? tokens[position] : nil }
    func keyword(_ token: FilterToken?) -> String? {
        if case .word(let word) = token { return word.uppercased() }
        return nil
    }

    mutating func next() throws(BuilderParseError) -> FilterToken {
        guard let token = peek() else { throw BuilderParseError(message: "the filter ends early") }
        position += 1
        return token
    }

    mutating func expect(_ symbol: String) throws(BuilderParseError) {
        let token = try next()
        guard token == .symbol(symbol) else { throw BuilderParseError(message: "expected '\(symbol)'") }
    }

    mutating func expectKeyword(_ word: String) throws(BuilderParseError) {
        guard keyword(try next()) == word else { throw BuilderParseError(message: "expected \(word)") }
    }

    mutating func skipAnd() -> Bool {
        guard let token = peek() else { return false }
        if token == .symbol("&&") || keyword(token) == "AND" {
            position += 1
            return true
        }
        return false
    }

    mutating func fieldName() throws(BuilderParseError) -> BuilderField {
        guard case .word(let name) = try next() else { throw BuilderParseError(message: "expected a field name") }
        guard let field = fields.first(where: { $0.name == name }) else {
            throw BuilderParseError(message: "'\(name)' is not a field the builder offers for this type")
        }
        return field
    }

    mutating func clause() throws(BuilderParseError) -> BuilderRow {
        let first = peek()
        if keyword(first) == "NOT" {
            position += 1
            try expect("(")
            let field = try fieldName()
            try expectKeyword("IN")
            let values = try list()
            try expect(")")
            return BuilderRow(field: field.name, op: .notIn, value: values)
        }
        if keyword(first) == "ANY" {
            position += 1
            let field = try fieldName()
            try expectKeyword("BEGINSWITH")
            guard case .string(let value) = try next() else { throw BuilderParseError(message: "BEGINSWITH needs a string") }
            return BuilderRow(field: field.name, op: .anyBeginsWith, value: value)
        }
        if case .word(let word) = first, word.hasPrefix("distanceToLocation:fromLocation:") {
            position += 1
            try expect("(")
            let field = try fieldName()
            try expect(",")
            let place = try literal()
            try expect(")")
            try expect("<")
            guard case .number(let radius) = try next() else { throw BuilderParseError(message: "the distance needs a number of kilometres") }
            return BuilderRow(field: field.name, op: .near, value: "\(place); \(radius)")
        }
        if case .word(let word) = first, word.lowercased() == "self" {
            position += 1
            try expectKeyword("CONTAINS")
            guard case .string(let value) = try next() else { throw BuilderParseError(message: "self CONTAINS needs a string") }
            return BuilderRow(field: BuilderField.tokenSearch.name, op: .tokens, value: value)
        }
        let field = try fieldName()
        let opToken = try next()
        switch opToken {
        case .symbol(let symbol):
            let op: FilterOperator
            switch symbol {
            case "=", "==": op = .equals
            case "!=", "<>": op = .notEquals
            case "<": op = .less
            case "<=", "=<": op = .lessOrEqual
            case ">": op = .greater
            case ">=", "=>": op = .greaterOrEqual
            default: throw BuilderParseError(message: "'\(symbol)' is not a comparison")
            }
            return BuilderRow(field: field.name, op: op, value: try literal())
        case .word(let word):
            switch word.uppercased() {
            case "BEGINSWITH":
                guard case .string(let value) = try next() else { throw BuilderParseError(message: "BEGINSWITH needs a string") }
                return BuilderRow(field: field.name, op: .beginsWith, value: value)
            case "IN": return BuilderRow(field: field.name, op: .isIn, value: try list())
            case "BETWEEN": return BuilderRow(field: field.name, op: .between, value: try list())
            case "CONTAINS": return BuilderRow(field: field.name, op: .contains, value: try literal())
            default: throw BuilderParseError(message: "\(word) is not an operator the builder shows")
            }
        default:
            throw BuilderParseError(message: "expected an operator after \(field.name)")
        }
    }

    /// `{a, b}` as the value text `a, b` (strings with commas quoted).
    mutating func list() throws(BuilderParseError) -> String {
        try expect("{")
        var items: [String] = []
        if peek() == .symbol("}") {
            position += 1
            return ""
        }
        repeat {
            let item = try literal()
            items.append(item.contains(",") ? "\"\(item)\"" : item)
        } while try skipComma()
        try expect("}")
        return items.joined(separator: ", ")
    }

    mutating func skipComma() throws(BuilderParseError) -> Bool {
        if peek() == .symbol(",") {
            position += 1
            return true
        }
        return false
    }

    /// A literal as the builder's value text.
    mutating func literal() throws(BuilderParseError) -> String {
        switch try next() {
        case .string(let value): return value
        case .number(let value): return value
        case .word(let word) where word.uppercased() == "CAST":
            try expect("(")
            let inner = try next()
            try expect(",")
            guard case .string(let className) = try next() else { throw BuilderParseError(message: "CAST needs a class name") }
            try expect(")")
            switch (className, inner) {
            case ("NSDate", .number(let seconds)):
                guard let value = Double(seconds) else { throw BuilderParseError(message: "bad date") }
                return ISO8601Text.string(Date(timeIntervalSinceReferenceDate: value))
            case ("CKReference", .string(let name)), ("CLLocation", .string(let name)):
                return name
            default:
                throw BuilderParseError(message: "CAST to \(className) is not something the builder shows")
            }
        case .word(let word):
            throw BuilderParseError(message: "'\(word)' is not a value the builder shows")
        case .symbol(let symbol):
            throw BuilderParseError(message: "'\(symbol)' is not a value")
        }
    }
}

/// `2024-05-01T00:00:00Z` (seconds precision) for builder values.
enum ISO8601Text {
    static func string(_ date: Date) -> String {
        ValueText.timestamp(date).replacingOccurrences(of: " ", with: "T")
    }
}
