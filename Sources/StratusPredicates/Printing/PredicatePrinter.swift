import Foundation
import StratusModel

/// Writes a tree back as a format string in one canonical style: keywords upper-case, `==`,
/// `!=`, strings in double quotes with escapes, and parentheses wherever grouping is not
/// obvious (always around a mix of AND and OR, since Apple never documented their precedence).
///
/// The contract is the round trip: `parse(format(tree))` gives `tree` back, ranges aside.
public enum PredicatePrinter {
    public static func format(_ node: PredicateNode) -> String {
        var out = ""
        write(node, into: &out)
        return out
    }

    public static func format(_ expression: ExpressionNode) -> String {
        var out = ""
        write(expression, minimumPrecedence: 0, into: &out)
        return out
    }

    static func write(_ node: PredicateNode, into out: inout String) {
        switch node.kind {
        case .truePredicate: out += "TRUEPREDICATE"
        case .falsePredicate: out += "FALSEPREDICATE"
        case .and(let items): writeChain(items, connective: " AND ", into: &out)
        case .or(let items): writeChain(items, connective: " OR ", into: &out)
        case .not(let inner):
            out += "NOT "
            switch inner.kind {
            case .truePredicate, .falsePredicate, .not:
                write(inner, into: &out)
            default:
                out += "("
                write(inner, into: &out)
                out += ")"
            }
        case .comparison(let comparison):
            write(comparison, into: &out)
        }
    }

    static func writeChain(_ items: [PredicateNode], connective: String, into out: inout String) {
        for (offset, item) in items.enumerated() {
            if offset > 0 { out += connective }
            switch item.kind {
            case .and, .or:
                out += "("
                write(item, into: &out)
                out += ")"
            default:
                write(item, into: &out)
            }
        }
    }

    static func write(_ comparison: ComparisonNode, into out: inout String) {
        if comparison.modifier != .direct { out += comparison.modifier.rawValue + " " }
        write(comparison.lhs, minimumPrecedence: 0, into: &out)
        out += " " + comparison.op.rawValue
        if !comparison.options.isEmpty { out += "[" + comparison.options.letters + "]" }
        out += " "
        write(comparison.rhs, minimumPrecedence: 0, into: &out)
    }

    // MARK: - Expressions

    /// `minimumPrecedence`: a binary operator looser than this needs parentheses here.
    static func write(_ expression: ExpressionNode, minimumPrecedence: Int, into out: inout String) {
        switch expression.kind {
        case .literal(let literal): write(literal, into: &out)
        case .value(let value): write(value, into: &out)
        case .key(let name): out += keyText(name)
        case .evaluatedObject: out += "SELF"
        case .variable(let name): out += "$" + name
        case .formatArgument(let spec): out += "%" + spec
        case .anyKey: out += "ANYKEY"
        case .aggregate(let items):
            out += "{"
            writeList(items, into: &out)
            out += "}"
        case .function(let name, let arguments):
            out += name.hasSuffix(":") ? name : keyText(name)
            out += "("
            writeList(arguments, into: &out)
            out += ")"
        case .member(let base, let name):
            writePostfixBase(base, into: &out)
            out += "." + keyText(name)
        case .index(let base, let subscriptKind):
            writePostfixBase(base, into: &out)
            out += "["
            switch subscriptKind {
            case .first: out += "FIRST"
            case .last: out += "LAST"
            case .size: out += "SIZE"
            case .expression(let index): write(index, minimumPrecedence: 0, into: &out)
            }
            out += "]"
        case .unary(let op, let operand):
            out += op.rawValue
            if needsParenthesesAsUnaryOperand(operand) {
                out += "("
                write(operand, minimumPrecedence: 0, into: &out)
                out += ")"
            } else {
                write(operand, minimumPrecedence: Int.max, into: &out)
            }
        case .binary(let op, let lhs, let rhs):
            let parenthesize = op.precedence < minimumPrecedence
            if parenthesize { out += "(" }
            write(lhs, minimumPrecedence: op.isRightAssociative ? op.precedence + 1 : op.precedence, into: &out)
            out += " " + op.rawValue + " "
            write(rhs, minimumPrecedence: op.isRightAssociative ? op.precedence : op.precedence + 1, into: &out)
            if parenthesize { out += ")" }
        case .cast(let value, let type):
            out += "CAST("
            write(value, minimumPrecedence: 0, into: &out)
            out += ", "
            write(type, minimumPrecedence: 0, into: &out)
            out += ")"
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, minimumPrecedence: 0, into: &out)
            out += ", $" + variable + ", "
            write(predicate, into: &out)
            out += ")"
        case .assignment(let name, let value):
            let parenthesize = minimumPrecedence > 0
            if parenthesize { out += "(" }
            out += "$" + name + " := "
            write(value, minimumPrecedence: 0, into: &out)
            if parenthesize { out += ")" }
        }
    }

    static func writeList(_ items: [ExpressionNode], into out: inout String) {
        for (offset, item) in items.enumerated() {
            if offset > 0 { out += ", " }
            write(item, minimumPrecedence: 0, into: &out)
        }
    }

    static func needsParenthesesAsUnaryOperand(_ operand: ExpressionNode) -> Bool {
        switch operand.kind {
        case .binary, .assignment: return true
        case .literal(.integer), .literal(.double): return true
        case .value(.int64), .value(.double): return true
        default: return false
        }
    }

    /// `a.b` and `a[0]` bind tightest; anything looser, or a number, is parenthesised first.
    static func writePostfixBase(_ base: ExpressionNode, into out: inout String) {
        switch base.kind {
        case .binary, .unary, .assignment, .literal(.integer), .literal(.double), .value:
            out += "("
            write(base, minimumPrecedence: 0, into: &out)
            out += ")"
        default:
            write(base, minimumPrecedence: Int.max, into: &out)
        }
    }

    /// A key as the lexer will read it back: reserved words escaped with `#`.
    static func keyText(_ name: String) -> String {
        if name.hasPrefix("@") { return name }
        return Keyword.isReserved(name) ? "#" + name : name
    }

    static func write(_ literal: Literal, into out: inout String) {
        switch literal {
        case .string(let text): out += quoted(text)
        case .integer(let value): out += String(value)
        case .double(let value): out += doubleText(value)
        case .boolean(let value): out += value ? "TRUE" : "FALSE"
        case .null: out += "NULL"
        }
    }

    /// Bound argument values. Types with no literal syntax print as the `CAST` Apple's own
    /// `predicateFormat` uses for dates, which the checker reads back.
    static func write(_ value: FieldValue, into out: inout String) {
        switch value {
        case .string(let text): out += quoted(text)
        case .int64(let number): out += String(number)
        case .double(let number): out += doubleText(number)
        case .timestamp(let date):
            out += "CAST(" + doubleText(date.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .reference(let reference):
            out += "CAST(" + quoted(reference.recordName) + ", \"CKReference\")"
        case .location(let location):
            out += "CAST(" + quoted("\(doubleText(location.latitude)),\(doubleText(location.longitude))") + ", \"CLLocation\")"
        case .bytes(let data):
            out += "CAST(" + quoted(data.base64EncodedString()) + ", \"NSData\")"
        case .asset(let asset):
            out += "CAST(" + quoted(asset.fileChecksum) + ", \"CKAsset\")"
        case .list(_, let items):
            out += "{"
            for (offset, item) in items.enumerated() {
                if offset > 0 { out += ", " }
                write(item, into: &out)
            }
            out += "}"
        }
    }

    /// The shortest text that reads back as the same double (and as a double, not an integer).
    public static func doubleText(_ value: Double) -> String {
        if value.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if value.isInfinite { return value > 0 ? "1e999" : "-1e999" }
        return "\(value)"
    }

    /// `text` in double quotes, escaping what the lexer would otherwise read differently.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension PredicateNode {
    /// The canonical format string (see `PredicatePrinter`).
    public var canonicalFormat: String { PredicatePrinter.format(self) }
}
