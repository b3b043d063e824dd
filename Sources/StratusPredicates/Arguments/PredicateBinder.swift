import StratusModel

/// Substitutes arguments for format specifiers, left to right, as `NSPredicate(format:)` does.
///
/// Binding never stops at the first problem: each specifier left without a fitting argument
/// is reported with its own range, and stays in the tree so the rest can still be checked.
public struct PredicateBinder {
    let arguments: [PredicateArgument]
    var next = 0
    var diagnostics: [PredicateDiagnostic] = []

    /// The tree with arguments substituted, and every binding problem.
    public static func bind(
        _ node: PredicateNode, arguments: [PredicateArgument], sourceLength: Int
    ) -> (node: PredicateNode, diagnostics: [PredicateDiagnostic]) {
        var binder = PredicateBinder(arguments: arguments)
        let bound = binder.bind(node)
        if binder.next < arguments.count {
            let used = binder.next
            binder.diagnostics.append(PredicateDiagnostic(
                .extraArgument,
                "\(arguments.count) argument\(arguments.count == 1 ? "" : "s") given, but the format has \(used) specifier\(used == 1 ? "" : "s")",
                range: SourceRange(offset: sourceLength, length: 0)))
        }
        return (bound, binder.diagnostics)
    }

    mutating func bind(_ node: PredicateNode) -> PredicateNode {
        var result = node
        switch node.kind {
        case .truePredicate, .falsePredicate: break
        case .and(let items): result.kind = .and(items.map { bind($0) })
        case .or(let items): result.kind = .or(items.map { bind($0) })
        case .not(let inner): result.kind = .not(bind(inner))
        case .comparison(var comparison):
            comparison.lhs = bind(comparison.lhs)
            comparison.rhs = bind(comparison.rhs)
            result.kind = .comparison(comparison)
        }
        return result
    }

    mutating func bind(_ expression: ExpressionNode) -> ExpressionNode {
        var result = expression
        switch expression.kind {
        case .literal, .value, .key, .evaluatedObject, .variable, .anyKey:
            break
        case .formatArgument(let spec):
            return substitute(spec, at: expression.range) ?? expression
        case .aggregate(let items): result.kind = .aggregate(items.map { bind($0) })
        case .function(let name, let arguments): result.kind = .function(name, arguments.map { bind($0) })
        case .member(let base, let name): result.kind = .member(bind(base), name)
        case .index(let base, let subscriptKind):
            let boundBase = bind(base)
            if case .expression(let index) = subscriptKind {
                result.kind = .index(boundBase, .expression(bind(index)))
            } else {
                result.kind = .index(boundBase, subscriptKind)
            }
        case .unary(let op, let operand): result.kind = .unary(op, bind(operand))
        case .binary(let op, let lhs, let rhs):
            let left = bind(lhs)
            result.kind = .binary(op, left, bind(rhs))
        case .cast(let value, let type):
            let boundValue = bind(value)
            result.kind = .cast(boundValue, bind(type))
        case .subquery(let collection, let variable, let predicate):
            let boundCollection = bind(collection)
            result.kind = .subquery(boundCollection, variable, bind(predicate))
        case .assignment(let name, let value): result.kind = .assignment(name, bind(value))
        }
        return result
    }

    enum Conversion { case object, key, integer, floating, string, other }

    static func conversion(of spec: String) -> Conversion {
        switch spec.unicodeScalars.last {
        case "@": return .object
        case "K": return .key
        case "d", "i", "o", "u", "x", "X", "D", "O", "U", "c", "C": return .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": return .floating
        case "s", "S": return .string
        default: return .other
        }
    }

    mutating func substitute(_ spec: String, at range: SourceRange) -> ExpressionNode? {
        let ordinal = next + 1
        next += 1
        guard ordinal <= arguments.count else {
            diagnostics.append(PredicateDiagnostic(
                .missingArgument,
                "no argument for %\(spec) (specifier \(ordinal); \(arguments.count) argument\(arguments.count == 1 ? "" : "s") given)",
                range: range))
            return nil
        }
        let argument = arguments[ordinal - 1]
        let conversion = Self.conversion(of: spec)
        switch (conversion, argument) {
        case (.key, .key(let name)):
            guard let key = Self.keyExpression(name, range: range) else {
                diagnostics.append(PredicateDiagnostic(
                    .invalidKeyArgument, "'\(name)' is not a field name, so it can't stand for %K", range: range))
                return nil
            }
            return key
        case (.key, .value(let value)):
            var message = "%K needs a field name (key:NAME), but argument \(ordinal) is a value"
            if case .string(let text) = value, CharacterClass.isIdentifier(text) { message += "; write key:\(text)" }
            diagnostics.append(PredicateDiagnostic(.keyArgumentExpected, message, range: range))
            return nil
        case (_, .key(let name)):
            diagnostics.append(PredicateDiagnostic(
                .valueArgumentExpected,
                "%\(spec) needs a value, but argument \(ordinal) is the field name '\(name)'; use %K for field names",
                range: range))
            return nil
        case (.object, .value(let value)):
            return ExpressionNode(.value(value), range: range)
        case (.integer, .value(let value)):
            if case .int64 = value { return ExpressionNode(.value(value), range: range) }
            if case .double(let number) = value, number.rounded() == number, let exact = Int64(exactly: number) {
                return ExpressionNode(.value(.int64(exact)), range: range)
            }
        case (.floating, .value(let value)):
            if case .double = value { return ExpressionNode(.value(value), range: range) }
            if case .int64(let number) = value { return ExpressionNode(.value(.double(Double(number))), range: range) }
        case (.string, .value(let value)):
            if case .string = value { return ExpressionNode(.value(value), range: range) }
        case (.other, .value):
            break
        }
        let wanted: String
        switch conversion {
        case .integer: wanted = "an integer (int:...)"
        case .floating: wanted = "a number (double:...)"
        case .string: wanted = "a string (string:...)"
        default: wanted = "a value of another kind; use %@"
        }
        diagnostics.append(PredicateDiagnostic(
            .argumentType, "%\(spec) needs \(wanted), but argument \(ordinal) is \(Self.describe(argument))",
            range: range))
        return nil
    }

    static func describe(_ argument: PredicateArgument) -> String {
        switch argument {
        case .key(let name): return "the field name '\(name)'"
        case .value(let value): return FieldValueDescription.article(of: value)
        }
    }

    /// `a` or `a.b.c` (as Apple's `%K` accepts a key path) as a key expression.
    static func keyExpression(_ path: String, range: SourceRange) -> ExpressionNode? {
        var node: ExpressionNode?
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            let name = String(part)
            let valid = name.hasPrefix("@") ? CharacterClass.isIdentifier(String(name.dropFirst())) : CharacterClass.isIdentifier(name)
            guard valid else { return nil }
            if let base = node {
                node = ExpressionNode(.member(base, name), range: range)
            } else {
                node = ExpressionNode(.key(name), range: range)
            }
        }
        return node
    }
}

/// Words for values in messages ("a string", "a date" ...).
enum FieldValueDescription {
    static func article(of value: FieldValue) -> String {
        switch value {
        case .string: return "a string"
        case .int64: return "an integer"
        case .double: return "a double"
        case .timestamp: return "a date"
        case .bytes: return "bytes"
        case .asset: return "an asset"
        case .reference: return "a reference"
        case .location: return "a location"
        case .list: return "a list"
        }
    }
}
