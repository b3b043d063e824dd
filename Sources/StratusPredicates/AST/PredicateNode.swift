/// A predicate: something that is true or false for a record.
///
/// Equality is structural *and* positional; compare `withoutRanges` forms to ask whether two
/// predicates say the same thing (the printer's round trip is stated that way).
public struct PredicateNode: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case truePredicate
        case falsePredicate
        /// A chain `a AND b AND c`, flattened; explicit parentheses keep their nesting.
        case and([PredicateNode])
        /// A chain `a OR b OR c`, flattened; explicit parentheses keep their nesting.
        case or([PredicateNode])
        case not(PredicateNode)
        case comparison(ComparisonNode)
    }

    public var kind: Kind
    /// The whole predicate's source.
    public var range: SourceRange
    /// The connective keywords: each `AND`/`OR` of a chain, or the `NOT`.
    public var keywordRanges: [SourceRange]

    public init(_ kind: Kind, range: SourceRange, keywordRanges: [SourceRange] = []) {
        self.kind = kind
        self.range = range
        self.keywordRanges = keywordRanges
    }
}

/// `[modifier] lhs operator[options] rhs`.
public struct ComparisonNode: Hashable, Sendable {
    public var modifier: ComparisonModifier
    public var lhs: ExpressionNode
    public var op: PredicateOperator
    public var options: ComparisonOptions
    public var rhs: ExpressionNode
    /// The `ANY`/`SOME`/`ALL`/`NONE` keyword, when there is one.
    public var modifierRange: SourceRange?
    public var operatorRange: SourceRange
    /// The `[cd]` after the operator, when there is one.
    public var optionsRange: SourceRange?

    public init(
        modifier: ComparisonModifier = .direct, lhs: ExpressionNode, op: PredicateOperator,
        options: ComparisonOptions = [], rhs: ExpressionNode,
        modifierRange: SourceRange? = nil, operatorRange: SourceRange = .none, optionsRange: SourceRange? = nil
    ) {
        self.modifier = modifier
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
        self.modifierRange = modifierRange
        self.operatorRange = operatorRange
        self.optionsRange = optionsRange
    }
}

/// The aggregate modifier in front of a comparison. `SOME` parses as `.any`.
public enum ComparisonModifier: String, Hashable, Sendable {
    case direct = ""
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// Every comparison operator of the format syntax, whatever its spelling.
public enum PredicateOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    case matches = "MATCHES"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    /// The operator with its operands swapped (`a < b` is `b > a`), for the six basic ones.
    public var flipped: PredicateOperator? {
        switch self {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }
}

/// `[c]`, `[d]`, `[n]`, `[l]` and their combinations.
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    public static let normalized = ComparisonOptions(rawValue: 4)
    public static let localeSensitive = ComparisonOptions(rawValue: 8)

    /// The letters in canonical order (`cdnl`).
    public var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.normalized) { text += "n" }
        if contains(.localeSensitive) { text += "l" }
        return text
    }

    /// Parses letters such as `cd` (any case, any order); nil on anything else.
    public init?(letters: String) {
        var options: ComparisonOptions = []
        for c in letters.lowercased() {
            switch c {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default: return nil
            }
        }
        if letters.isEmpty { return nil }
        self = options
    }
}
