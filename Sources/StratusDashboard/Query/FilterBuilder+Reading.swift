import Foundation
import StratusPredicates

extension FilterBuilder {
    /// Rows for a format string, or why the builder cannot show it. The text is read by the
    /// predicate language's parser (the one the checker and the engine use), so the builder
    /// never disagrees with them about what the text says.
    static func rows(from text: String, fields: [BuilderField]) -> Result<[BuilderRow], BuilderParseError> {
        if text.allSatisfy(\.isWhitespace) { return .success([]) }
        let predicate: PredicateNode
        do {
            predicate = try PredicateParser.parse(text)
        } catch {
            return .failure(BuilderParseError(message: error.message))
        }
        do {
            return .success(try BuilderRowReader(source: Array(text.unicodeScalars), fields: fields).rows(of: predicate))
        } catch {
            return .failure(error)
        }
    }
}

/// Reads a parsed predicate as builder rows: a plain AND of the conditions the builder offers,
/// each value as the text a person would type in its cell.
struct BuilderRowReader {
    let source: [Unicode.Scalar]
    let fields: [BuilderField]

    func rows(of predicate: PredicateNode) throws(BuilderParseError) -> [BuilderRow] {
        if predicate.containsFormatArgument {
            throw BuilderParseError(message: "format specifiers (%@, %K ...) are edited as text, with their values under Arguments")
        }
        switch predicate.kind {
        case .truePredicate:
            return []
        case .and(let parts):
            var rows: [BuilderRow] = []
            for part in parts {
                // `(a AND b) AND c` is still a plain AND.
                if case .and = part.kind { rows += try self.rows(of: part) } else { rows.append(try row(of: part)) }
            }
            return rows
        case .or:
            throw BuilderParseError(message: "OR is not a builder condition (CloudKit refuses OR anyway)")
        default:
            return [try row(of: predicate)]
        }
    }

    /// One condition.
    func row(of predicate: PredicateNode) throws(BuilderParseError) -> BuilderRow {
        switch predicate.kind {
        case .not(let inner):
            guard case .comparison(let comparison) = inner.kind, comparison.op == .in, comparison.modifier == .direct else {
                throw BuilderParseError(message: "the builder shows NOT only as NOT (field IN {…})")
            }
            return BuilderRow(field: try field(comparison.lhs).name, op: .notIn, value: try list(comparison.rhs))
        case .comparison(let comparison):
            return try row(of: comparison)
        case .or:
            throw BuilderParseError(message: "OR is not a builder condition (CloudKit refuses OR anyway)")
        case .and:
            throw BuilderParseError(message: "only conditions joined by AND fit the builder")
        case .truePredicate, .falsePredicate:
            throw BuilderParseError(message: "TRUEPREDICATE and FALSEPREDICATE are not builder conditions")
        }
    }

    private func row(of comparison: ComparisonNode) throws(BuilderParseError) -> BuilderRow {
        if comparison.modifier == .any {
            guard comparison.op == .beginsWith else { throw BuilderParseError(message: "the builder shows ANY only as ANY field BEGINSWITH") }
            return BuilderRow(field: try field(comparison.lhs).name, op: .anyBeginsWith, value: try string(comparison.rhs, for: "BEGINSWITH"))
        }
        guard comparison.modifier == .direct else {
            throw BuilderParseError(message: "\(comparison.modifier.rawValue) is not something the builder shows")
        }
        if case .function(let name, let arguments) = comparison.lhs.kind, name == "distanceToLocation:fromLocation:" {
            guard comparison.op == .less, arguments.count == 2 else {
                throw BuilderParseError(message: "the builder shows a distance only as distanceToLocation:fromLocation:(field, place) < km")
            }
            guard let radius = number(comparison.rhs) else { throw BuilderParseError(message: "the distance needs a number of kilometres") }
            return BuilderRow(field: try field(arguments[0]).name, op: .near, value: "\(try literal(arguments[1])); \(radius)")
        }
        if case .evaluatedObject = comparison.lhs.kind {
            guard comparison.op == .contains else { throw BuilderParseError(message: "the builder shows self only as self CONTAINS \"words\"") }
            return BuilderRow(field: BuilderField.tokenSearch.name, op: .tokens, value: try string(comparison.rhs, for: "self CONTAINS"))
        }
        let name = try field(comparison.lhs).name
        switch comparison.op {
        case .equal: return BuilderRow(field: name, op: .equals, value: try literal(comparison.rhs))
        case .notEqual: return BuilderRow(field: name, op: .notEquals, value: try literal(comparison.rhs))
        case .less: return BuilderRow(field: name, op: .less, value: try literal(comparison.rhs))
        case .lessOrEqual: return BuilderRow(field: name, op: .lessOrEqual, value: try literal(comparison.rhs))
        case .greater: return BuilderRow(field: name, op: .greater, value: try literal(comparison.rhs))
        case .greaterOrEqual: return BuilderRow(field: name, op: .greaterOrEqual, value: try literal(comparison.rhs))
        case .beginsWith: return BuilderRow(field: name, op: .beginsWith, value: try string(comparison.rhs, for: "BEGINSWITH"))
        case .in: return BuilderRow(field: name, op: .isIn, value: try list(comparison.rhs))
        case .between: return BuilderRow(field: name, op: .between, value: try list(comparison.rhs))
        case .contains: return BuilderRow(field: name, op: .contains, value: try literal(comparison.rhs))
        default: throw BuilderParseError(message: "\(comparison.op.rawValue) is not an operator the builder shows")
        }
    }

    /// The field a key names, when the builder offers it.
    private func field(_ expression: ExpressionNode) throws(BuilderParseError) -> BuilderField {
        guard case .key(let name) = expression.kind else { throw BuilderParseError(message: "expected a field name") }
        guard let field = fields.first(where: { $0.name == name }) else {
            throw BuilderParseError(message: "'\(name)' is not a field the builder offers for this type")
        }
        return field
    }

    /// `{a, b}` as the value text `a, b` (items with commas quoted).
    private func list(_ expression: ExpressionNode) throws(BuilderParseError) -> String {
        guard case .aggregate(let items) = expression.kind else { throw BuilderParseError(message: "expected a list in braces, {a, b}") }
        var texts: [String] = []
        for item in items {
            let text = try literal(item)
            texts.append(text.contains(",") ? "\"\(text)\"" : text)
        }
        return texts.joined(separator: ", ")
    }

    private func string(_ expression: ExpressionNode, for what: String) throws(BuilderParseError) -> String {
        guard case .literal(.string(let value)) = expression.kind else { throw BuilderParseError(message: "\(what) needs a string") }
        return value
    }

    /// A number as it was typed (`-3`, `2.50`, `1e3`).
    private func number(_ expression: ExpressionNode) -> String? {
        switch expression.kind {
        case .literal(.integer), .literal(.double): return text(of: expression.range)
        default: return nil
        }
    }

    /// A value as the builder's cell text: strings without quotes, numbers as typed, dates,
    /// references and places out of their CAST.
    private func literal(_ expression: ExpressionNode) throws(BuilderParseError) -> String {
        if let number = number(expression) { return number }
        switch expression.kind {
        case .literal(.string(let value)):
            return value
        case .cast(let value, let type):
            guard case .literal(.string(let className)) = type.kind else { throw BuilderParseError(message: "CAST needs a class name") }
            switch (className, value.kind) {
            case ("NSDate", .literal(.integer(let seconds))):
                return ISO8601Text.string(Date(timeIntervalSinceReferenceDate: Double(seconds)))
            case ("NSDate", .literal(.double(let seconds))):
                return ISO8601Text.string(Date(timeIntervalSinceReferenceDate: seconds))
            case ("CKReference", .literal(.string(let name))), ("CLLocation", .literal(.string(let name))):
                return name
            default:
                throw BuilderParseError(message: "CAST to \(className) is not something the builder shows")
            }
        case .key(let word):
            throw BuilderParseError(message: "'\(word)' is not a value the builder shows")
        default:
            throw BuilderParseError(message: "'\(text(of: expression.range))' is not a value the builder shows")
        }
    }

    private func text(of range: SourceRange) -> String {
        let end = min(source.count, range.end)
        guard range.offset < end else { return "" }
        var text = ""
        text.unicodeScalars.append(contentsOf: source[range.offset..<end])
        return text
    }
}

extension PredicateNode {
    /// Whether a `%@`, `%K`, ... stands anywhere in the predicate.
    var containsFormatArgument: Bool {
        switch kind {
        case .truePredicate, .falsePredicate: return false
        case .and(let parts), .or(let parts): return parts.contains(where: \.containsFormatArgument)
        case .not(let inner): return inner.containsFormatArgument
        case .comparison(let comparison): return comparison.lhs.containsFormatArgument || comparison.rhs.containsFormatArgument
        }
    }
}

extension ExpressionNode {
    /// Whether a `%@`, `%K`, ... stands anywhere in the expression.
    var containsFormatArgument: Bool {
        switch kind {
        case .formatArgument: return true
        case .aggregate(let items), .function(_, let items): return items.contains(where: \.containsFormatArgument)
        case .member(let base, _), .unary(_, let base), .assignment(_, let base): return base.containsFormatArgument
        case .index(let base, let position):
            if case .expression(let inner) = position, inner.containsFormatArgument { return true }
            return base.containsFormatArgument
        case .binary(_, let left, let right), .cast(let left, let right): return left.containsFormatArgument || right.containsFormatArgument
        case .subquery(let collection, _, let predicate): return collection.containsFormatArgument || predicate.containsFormatArgument
        case .literal, .value, .key, .evaluatedObject, .variable, .anyKey: return false
        }
    }
}
