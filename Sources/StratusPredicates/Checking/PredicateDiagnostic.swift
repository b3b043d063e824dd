/// One problem with a predicate: a stable code, a message a person can act on, and the part
/// of the format string it is about.
public struct PredicateDiagnostic: Hashable, Sendable, Error, CustomStringConvertible {
    /// Stable identifiers, one per rule, for tests, the editor and scripts.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        // Syntax
        case syntax
        // Arguments
        case missingArgument, extraArgument, keyArgumentExpected, valueArgumentExpected, argumentType
        case invalidKeyArgument
        // CloudKit's predicate rules
        case orOperator, allModifier, noneModifier, anyModifierOperator, unsupportedOperator
        case substringContains, keyPath, collectionOperator, subquery, unsupportedFunction, castType
        case arithmetic, indexExpression, variable, unsupportedExpression
        case notAroundAnd, notAroundTokens, notAroundDistance, notAroundBetween
        case nullValue, unsupportedValueType, twoFields, twoConstants, comparisonOptions
        case distanceOutside, distanceShape, distanceLocation, invalidLocation
        case selfMisuse, tokenizeShape, emptyTokenSearch, betweenShape, listValue, mixedList, operandOrder
        // With a schema
        case unknownField, typeMismatch, wrongOperatorForType, listNeedsAny, unqueryableType
        case notQueryable, notSortable, notSearchable, usersType
        // Sort descriptors
        case sortType

        public var category: Category {
            switch self {
            case .syntax: return .syntax
            case .missingArgument, .extraArgument, .keyArgumentExpected, .valueArgumentExpected, .argumentType,
                 .invalidKeyArgument:
                return .arguments
            case .unknownField, .wrongOperatorForType, .listNeedsAny, .unqueryableType,
                 .notQueryable, .notSortable, .notSearchable, .usersType:
                return .schema
            case .sortType: return .sort
            default: return .cloudKit
            }
        }
    }

    /// Which phase found the problem.
    public enum Category: String, Hashable, Sendable {
        case syntax, arguments, cloudKit, schema, sort
    }

    public var code: Code
    public var message: String
    /// The offending part of the format string; nil when the problem is not in it (the record
    /// type, or a sort descriptor).
    public var range: SourceRange?
    /// The sort descriptor concerned, for problems with sorting.
    public var sortIndex: Int?

    public init(_ code: Code, _ message: String, range: SourceRange?, sortIndex: Int? = nil) {
        self.code = code
        self.message = message
        self.range = range
        self.sortIndex = sortIndex
    }

    public var category: Category { code.category }

    public var description: String {
        if let range { return "\(code.rawValue) at \(range): \(message)" }
        return "\(code.rawValue): \(message)"
    }

    /// Record-type problems first, then by position in the source, then sort problems.
    static func ordered(_ diagnostics: [PredicateDiagnostic]) -> [PredicateDiagnostic] {
        func key(_ d: PredicateDiagnostic) -> (Int, Int, Int, Int) {
            if let sortIndex = d.sortIndex { return (2, sortIndex, 0, 0) }
            guard let range = d.range else { return (0, 0, 0, 0) }
            return (1, range.offset, range.length, 0)
        }
        return diagnostics.enumerated().sorted { a, b in
            let ka = key(a.element), kb = key(b.element)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }
}

/// Every problem found with a predicate, with its source so they can be shown in place.
public struct PredicateDiagnostics: Error, Hashable, Sendable, CustomStringConvertible {
    public var source: String
    /// Sorted by position; never empty when thrown or returned as a failure.
    public var diagnostics: [PredicateDiagnostic]

    public init(source: String, diagnostics: [PredicateDiagnostic]) {
        self.source = source
        self.diagnostics = PredicateDiagnostic.ordered(diagnostics)
    }

    /// The first problem, the one a one-line report shows.
    public var first: PredicateDiagnostic? { diagnostics.first }

    /// Every diagnostic as caret text, separated by blank lines.
    public func rendered() -> String {
        diagnostics.map { $0.rendered(source: source) }.joined(separator: "\n\n")
    }

    public var description: String { rendered() }
}
