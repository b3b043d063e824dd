import Foundation
import StratusModel

/// What each side of a comparison is, as far as CloudKit cares. Unsupported expressions are
/// reported here, once, where they are found.
extension CloudKitRuleChecker {
    struct FieldRef {
        var name: String
        var range: SourceRange
    }

    enum Constant {
        case value(FieldValue, SourceRange)
        case list([FieldValue], SourceRange)
        /// An argument that was never bound (already reported by the binder).
        case placeholder(SourceRange)

        var range: SourceRange {
            switch self {
            case .value(_, let range), .list(_, let range), .placeholder(let range): return range
            }
        }
    }

    indirect enum Operand {
        case field(FieldRef)
        case selfObject(SourceRange)
        case constant(Constant)
        /// `distanceToLocation:fromLocation:(a, b)`.
        case distance([Operand], SourceRange)
        /// `tokenize:using:(text, options)`.
        case tokenize([Operand], SourceRange)
        /// The special key `allTokens`.
        case allTokens(SourceRange)
        /// Already reported.
        case invalid

        var isInvalid: Bool {
            if case .invalid = self { return true }
            return false
        }
    }

    static let distanceFunction = "distanceToLocation:fromLocation:"
    static let tokenizeFunction = "tokenize:using:"

    mutating func classify(_ expression: ExpressionNode) -> Operand {
        let range = expression.range
        switch expression.kind {
        case .key(let name):
            if name.hasPrefix("@") {
                report(.collectionOperator,
                       "Collection operators such as \(name) aren't supported by CloudKit: store the value you need in a field of its own",
                       range)
                return .invalid
            }
            if name == "allTokens" && schema?.fields["allTokens"] == nil { return .allTokens(range) }
            return .field(FieldRef(name: name, range: range))
        case .member(let base, _):
            if !Self.isKeyChain(base), case .invalid = classify(base) { return .invalid }
            let path = PredicatePrinter.format(expression.withoutRanges)
            if path.contains("@") {
                report(.collectionOperator,
                       "Collection operators such as @count aren't supported by CloudKit: store the value you need in a field of its own",
                       range)
            } else {
                report(.keyPath,
                       "CloudKit can't follow key paths into related records ('\(path)'): query the related record type, or copy the value into this record",
                       range)
            }
            return .invalid
        case .evaluatedObject:
            return .selfObject(range)
        case .literal(let literal):
            switch literal {
            case .string(let text): return .constant(.value(.string(text), range))
            case .integer(let number): return .constant(.value(.int64(number), range))
            case .double(let number): return .constant(.value(.double(number), range))
            case .boolean(let flag): return .constant(.value(.int64(flag ? 1 : 0), range))
            case .null:
                report(.nullValue,
                       "CloudKit can't compare with nil: there are no NULL comparisons; keep a field with a sentinel value (such as 0 or \"\") and query that",
                       range)
                return .invalid
            }
        case .value(let value):
            return classify(value: value, range: range)
        case .formatArgument:
            return .constant(.placeholder(range))
        case .aggregate(let items):
            return classifyAggregate(items, range: range)
        case .function(let name, let arguments):
            return classifyFunction(name, arguments, range: range)
        case .cast(let value, let type):
            return classifyCast(value, type, range: range)
        case .unary(.negate, let operand):
            let inner = classify(operand)
            switch inner {
            case .constant(.value(.int64(let number), _)) where number != Int64.min:
                return .constant(.value(.int64(-number), range))
            case .constant(.value(.double(let number), _)):
                return .constant(.value(.double(-number), range))
            case .invalid:
                return .invalid
            default:
                report(.arithmetic, "CloudKit doesn't evaluate arithmetic: compute the value first and pass it as an argument", range)
                return .invalid
            }
        case .unary, .binary:
            report(.arithmetic,
                   "CloudKit doesn't evaluate arithmetic or bitwise operators: compute the value first and pass it as an argument",
                   range)
            return .invalid
        case .index:
            report(.indexExpression, "CloudKit doesn't support indexing ([FIRST], [LAST], [SIZE], [n]) in predicates", range)
            return .invalid
        case .variable(let name):
            report(.variable,
                   "CloudKit doesn't substitute variables ($\(name)): pass the value as an argument with %@",
                   range)
            return .invalid
        case .subquery:
            report(.subquery, "CloudKit doesn't support SUBQUERY: query the related record type separately", range)
            return .invalid
        case .assignment:
            report(.unsupportedExpression, "CloudKit doesn't support variable assignment (:=) in predicates", range)
            return .invalid
        case .anyKey:
            report(.unsupportedExpression, "CloudKit doesn't support ANYKEY: name the field to compare", range)
            return .invalid
        }
    }

    /// `a`, `a.b`, `SELF.a`: a plain chain of keys.
    static func isKeyChain(_ expression: ExpressionNode) -> Bool {
        switch expression.kind {
        case .key, .evaluatedObject: return true
        case .member(let base, _): return isKeyChain(base)
        default: return false
        }
    }

    mutating func classify(value: FieldValue, range: SourceRange) -> Operand {
        switch value {
        case .string, .int64, .double, .reference, .location:
            return .constant(.value(value, range))
        case .timestamp:
            return .constant(.value(value.normalized, range))
        case .bytes, .asset:
            report(.unsupportedValueType,
                   "CloudKit predicates compare strings, numbers, dates, lists, references and locations; \(FieldValueDescription.article(of: value)) can't be compared",
                   range)
            return .invalid
        case .list(_, let items):
            var values: [FieldValue] = []
            for item in items {
                guard case .constant(.value(let element, _)) = classify(value: item, range: range) else { return .invalid }
                values.append(element)
            }
            return checkHomogeneous(values, range: range) ? .constant(.list(values, range)) : .invalid
        }
    }

    mutating func classifyAggregate(_ items: [ExpressionNode], range: SourceRange) -> Operand {
        var values: [FieldValue] = []
        var valid = true
        var placeholder = false
        for item in items {
            switch classify(item) {
            case .constant(.value(let value, _)):
                values.append(value)
            case .constant(.placeholder):
                placeholder = true
            case .constant(.list(_, let itemRange)):
                report(.listValue, "Lists can't be nested: a {...} list holds single values", itemRange)
                valid = false
            case .invalid:
                valid = false
            default:
                report(.listValue, "A {...} list may only hold constant values, not fields or functions", item.range)
                valid = false
            }
        }
        guard valid else { return .invalid }
        if placeholder { return .constant(.placeholder(range)) }
        return checkHomogeneous(values, range: range) ? .constant(.list(values, range)) : .invalid
    }

    /// One type family per list (integers and doubles are both numbers).
    mutating func checkHomogeneous(_ values: [FieldValue], range: SourceRange) -> Bool {
        let families = Set(values.map { Self.family(of: $0) })
        guard families.count <= 1 else {
            report(.mixedList, "A list's values must all have one type (CloudKit lists are homogeneous)", range)
            return false
        }
        return true
    }

    /// The comparable kind of a value: numbers form one family.
    static func family(of value: FieldValue) -> String {
        switch value {
        case .int64, .double: return "number"
        case .string: return "string"
        case .timestamp: return "date"
        case .reference: return "reference"
        case .location: return "location"
        case .bytes: return "bytes"
        case .asset: return "asset"
        case .list: return "list"
        }
    }

    mutating func classifyFunction(_ name: String, _ arguments: [ExpressionNode], range: SourceRange) -> Operand {
        switch name {
        case "now" where arguments.isEmpty:
            return .constant(.value(FieldValue.timestamp(now).normalized, range))
        case Self.distanceFunction where arguments.count == 2:
            return .distance(arguments.map { classify($0) }, range)
        case Self.tokenizeFunction where arguments.count == 2:
            return .tokenize(arguments.map { classify($0) }, range)
        case "now", Self.distanceFunction, Self.tokenizeFunction:
            let expected = name == "now" ? "no arguments" : "two arguments"
            report(.unsupportedFunction, "\(name) takes \(expected)", range)
            return .invalid
        default:
            if name.uppercased() == "FUNCTION" {
                report(.unsupportedFunction, "CloudKit can't call methods with FUNCTION(...): compute the value first and pass it as an argument", range)
            } else {
                report(.unsupportedFunction,
                       "CloudKit supports only the functions now(), distanceToLocation:fromLocation: and tokenize:using:; \(name) isn't one",
                       range)
            }
            return .invalid
        }
    }

    /// `CAST(seconds, 'NSDate')`, as Apple prints dates, and the casts our printer writes for
    /// bound references and locations.
    mutating func classifyCast(_ value: ExpressionNode, _ type: ExpressionNode, range: SourceRange) -> Operand {
        guard case .literal(.string(let typeName)) = type.kind else {
            report(.castType, "CAST needs a class name in quotes, as in CAST(736214400, \"NSDate\")", type.range)
            return .invalid
        }
        let inner = classify(value)
        if case .invalid = inner { return .invalid }
        switch (typeName, inner) {
        case ("NSDate", .constant(.value(.int64(let seconds), _))):
            return .constant(.value(FieldValue.timestamp(Date(timeIntervalSinceReferenceDate: Double(seconds))).normalized, range))
        case ("NSDate", .constant(.value(.double(let seconds), _))) where seconds.isFinite:
            return .constant(.value(FieldValue.timestamp(Date(timeIntervalSinceReferenceDate: seconds)).normalized, range))
        case ("CKReference", .constant(.value(.string(let name), _))),
             ("CKRecord.Reference", .constant(.value(.string(let name), _))),
             ("CKRecordID", .constant(.value(.string(let name), _))):
            return .constant(.value(.reference(Reference(recordName: name)), range))
        case ("CLLocation", .constant(.value(.string(let text), _))):
            if let location = Location(coordinates: text) {
                return .constant(.value(.location(location), range))
            }
        case (_, .constant(.placeholder)):
            return .constant(.placeholder(range))
        default:
            break
        }
        report(.castType, "CloudKit takes CAST only to turn seconds since 2001 into a date: CAST(736214400, \"NSDate\")", range)
        return .invalid
    }
}
