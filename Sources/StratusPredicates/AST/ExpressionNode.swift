import StratusModel

/// A value-producing expression: a key, a constant, a function call ...
public struct ExpressionNode: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case literal(Literal)
        /// A substituted argument (after binding `%@`); never produced by the parser.
        case value(FieldValue)
        /// A key: `name`, `@count`. Key paths are `.member` chains.
        case key(String)
        /// `SELF`.
        case evaluatedObject
        /// `$name`.
        case variable(String)
        /// `%@`, `%K`, `%d` ...: the conversion text after `%`.
        case formatArgument(String)
        /// `{a, b}`.
        case aggregate([ExpressionNode])
        /// `name(args)`, `distanceToLocation:fromLocation:(a, b)`, `FUNCTION(r, 'sel', ...)`.
        case function(String, [ExpressionNode])
        /// `base.name`.
        case member(ExpressionNode, String)
        /// `base[index]`.
        case index(ExpressionNode, IndexSubscript)
        case unary(UnaryOperator, ExpressionNode)
        case binary(BinaryOperator, ExpressionNode, ExpressionNode)
        /// `CAST(value, type)`.
        case cast(ExpressionNode, ExpressionNode)
        /// `SUBQUERY(collection, $variable, predicate)`.
        case subquery(ExpressionNode, String, PredicateNode)
        /// `$name := value`.
        case assignment(String, ExpressionNode)
        /// `ANYKEY`.
        case anyKey
    }

    public var kind: Kind
    public var range: SourceRange

    public init(_ kind: Kind, range: SourceRange = .none) {
        self.kind = kind
        self.range = range
    }
}

/// A literal as written in the format string.
public enum Literal: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case double(Double)
    /// `TRUE`/`YES`, `FALSE`/`NO`.
    case boolean(Bool)
    /// `NULL`/`NIL`.
    case null
}

/// What goes inside `[...]` after an expression.
public indirect enum IndexSubscript: Hashable, Sendable {
    case first, last, size
    case expression(ExpressionNode)
}

public enum UnaryOperator: String, Hashable, Sendable {
    case negate = "-"
    case bitwiseNot = "~"
}

/// Arithmetic and bitwise operators, with the precedence the parser and printer share.
public enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", power = "**"
    case bitwiseAnd = "&", bitwiseOr = "|", bitwiseXor = "^", shiftLeft = "<<", shiftRight = ">>"

    /// Higher binds tighter: `|` < `^` < `&` < shifts < `+ -` < `* /` < `**`.
    public var precedence: Int {
        switch self {
        case .bitwiseOr: return 1
        case .bitwiseXor: return 2
        case .bitwiseAnd: return 3
        case .shiftLeft, .shiftRight: return 4
        case .add, .subtract: return 5
        case .multiply, .divide: return 6
        case .power: return 7
        }
    }

    /// `**` groups to the right (`2 ** 3 ** 2` is `2 ** (3 ** 2)`); the rest to the left.
    public var isRightAssociative: Bool { self == .power }

    init?(_ symbol: Symbol) {
        switch symbol {
        case .plus: self = .add
        case .minus: self = .subtract
        case .star: self = .multiply
        case .slash: self = .divide
        case .power: self = .power
        case .ampersand: self = .bitwiseAnd
        case .pipe: self = .bitwiseOr
        case .caret: self = .bitwiseXor
        case .shiftLeft: self = .shiftLeft
        case .shiftRight: self = .shiftRight
        default: return nil
        }
    }
}
