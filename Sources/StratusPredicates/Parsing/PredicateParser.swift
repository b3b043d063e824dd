/// Recursive-descent parser for the whole NSPredicate format syntax.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparisons, then the
/// arithmetic and bitwise operators (see `BinaryOperator.precedence`). A chain of one connective
/// (`a AND b AND c`) becomes one n-ary node; explicit parentheses keep their own node, so the
/// tree records what was written. Apple never documented AND/OR precedence; the printer
/// therefore always parenthesises a mix of the two.
///
/// Every recursion counts against `maximumDepth`, so deep or hostile input fails with an
/// error instead of overflowing the stack.
public struct PredicateParser {
    /// How deep predicates and expressions may nest (parentheses, NOT, operands of operator
    /// chains ...).
    public static let maximumDepth = 200

    let scalars: [Unicode.Scalar]
    let tokens: [Token]
    var index = 0
    var depth = 0

    init(scalars: [Unicode.Scalar], tokens: [Token]) {
        self.scalars = scalars
        self.tokens = tokens
    }

    /// Parses a whole format string into a predicate.
    public static func parse(_ source: String) throws(PredicateSyntaxError) -> PredicateNode {
        let scalars = Array(source.unicodeScalars)
        var parser = PredicateParser(scalars: scalars, tokens: try PredicateLexer.tokens(of: scalars))
        return try parser.parseWhole()
    }

    /// What a parse step produced: a predicate, or (inside parentheses, or as the left side of
    /// a comparison still to come) an expression.
    enum Parsed {
        case predicate(PredicateNode)
        case expression(ExpressionNode)
    }

    mutating func parseWhole() throws(PredicateSyntaxError) -> PredicateNode {
        let parsed = try parseOr()
        if case .expression(let expression) = parsed {
            throw bareValueError(expression)
        }
        guard current.kind == .endOfInput else {
            throw error(expected: "AND, OR or end of input")
        }
        return try requirePredicate(parsed)
    }

    // MARK: - Tokens

    var current: Token { tokens[index] }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    func isSymbol(_ symbol: Symbol) -> Bool { current.kind == .symbol(symbol) }

    func isKeyword(_ keyword: Keyword) -> Bool { current.kind == .keyword(keyword) }

    /// The token as a message quotes it.
    func describe(_ token: Token) -> String {
        if token.kind == .endOfInput { return "end of input" }
        let start = token.range.offset
        let end = min(token.range.end, start + 24)
        var text = String(String.UnicodeScalarView(scalars[start..<end]))
        if end < token.range.end { text += "…" }
        if case .string = token.kind { return "string \(text)" }
        return "'\(text)'"
    }

    func error(expected: String) -> PredicateSyntaxError {
        PredicateSyntaxError("expected \(expected), found \(describe(current))", at: current.range)
    }

    mutating func expect(_ symbol: Symbol, _ what: String) throws(PredicateSyntaxError) -> Token {
        guard isSymbol(symbol) else { throw error(expected: what) }
        let token = current
        advance()
        return token
    }

    /// Counts one level of nesting; fails past `maximumDepth`.
    mutating func enter() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw PredicateSyntaxError(
                "nested too deeply: more than \(Self.maximumDepth) levels of parentheses, NOT or operators",
                at: current.range)
        }
    }

    // MARK: - Predicates

    func requirePredicate(_ parsed: Parsed) throws(PredicateSyntaxError) -> PredicateNode {
        switch parsed {
        case .predicate(let node): return node
        case .expression(let expression): throw bareValueError(expression)
        }
    }

    func bareValueError(_ expression: ExpressionNode) -> PredicateSyntaxError {
        var message = "expected a comparison operator, found \(describe(current))"
        if case .literal(.boolean(let value)) = expression.kind {
            let word = value ? "TRUE" : "FALSE"
            message += " (\(word) is a value, not a predicate; \(word)PREDICATE is the predicate)"
        } else if current.kind == .endOfInput {
            message += " (a value alone is not a predicate)"
        }
        return PredicateSyntaxError(message, at: current.range)
    }

    mutating func parseOr() throws(PredicateSyntaxError) -> Parsed {
        try parseChain(isOr: true)
    }

    mutating func parseAnd() throws(PredicateSyntaxError) -> Parsed {
        try parseChain(isOr: false)
    }

    /// `a OR b OR c` (or the AND chain), flattened into one node.
    mutating func parseChain(isOr: Bool) throws(PredicateSyntaxError) -> Parsed {
        func isConnective(_ token: Token) -> Bool {
            isOr ? token.kind == .keyword(.or) || token.kind == .symbol(.orOr)
                : token.kind == .keyword(.and) || token.kind == .symbol(.andAnd)
        }
        let first = isOr ? try parseAnd() : try parseNot()
        guard isConnective(current) else { return first }
        var items = [try requirePredicate(first)]
        var keywords: [SourceRange] = []
        while isConnective(current) {
            keywords.append(current.range)
            advance()
            let next = isOr ? try parseAnd() : try parseNot()
            items.append(try requirePredicate(next))
        }
        let range = items[0].range.union(items[items.count - 1].range)
        return .predicate(PredicateNode(isOr ? .or(items) : .and(items), range: range, keywordRanges: keywords))
    }

    mutating func parseNot() throws(PredicateSyntaxError) -> Parsed {
        guard isKeyword(.not) || isSymbol(.bang) else { return try parseComparison() }
        let keyword = current.range
        advance()
        try enter()
        defer { depth -= 1 }
        let operand = try requirePredicate(try parseNot())
        return .predicate(PredicateNode(.not(operand), range: keyword.union(operand.range), keywordRanges: [keyword]))
    }

    /// TRUEPREDICATE, FALSEPREDICATE, a parenthesised predicate, or a comparison.
    mutating func parseComparison() throws(PredicateSyntaxError) -> Parsed {
        let token = current
        switch token.kind {
        case .keyword(.truePredicate):
            advance()
            return .predicate(PredicateNode(.truePredicate, range: token.range))
        case .keyword(.falsePredicate):
            advance()
            return .predicate(PredicateNode(.falsePredicate, range: token.range))
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            let modifier: ComparisonModifier =
                token.kind == .keyword(.all) ? .all : token.kind == .keyword(.none) ? .none : .any
            advance()
            let lhs = try parseExpression()
            guard let comparison = try finishComparison(lhs, modifier: modifier, modifierRange: token.range) else {
                throw error(expected: "a comparison operator")
            }
            return .predicate(comparison)
        case .symbol(.leftParen):
            advance()
            try enter()
            defer { depth -= 1 }
            let inner = try parseOr()
            _ = try expect(.rightParen, "')' to close the '(' at offset \(token.range.offset)")
            switch inner {
            case .predicate(let node):
                return .predicate(node)
            case .expression(let expression):
                let wrapped = ExpressionNode(expression.kind, range: token.range.union(tokens[index - 1].range))
                let lhs = try parseBinary(minimumPrecedence: 1, lhs: parsePostfix(wrapped))
                if let comparison = try finishComparison(lhs, modifier: .direct, modifierRange: nil) {
                    return .predicate(comparison)
                }
                return .expression(lhs)
            }
        default:
            guard canStartExpression(token) else { throw keyError(expected: "a predicate") }
            let lhs = try parseExpression()
            if let comparison = try finishComparison(lhs, modifier: .direct, modifierRange: nil) {
                return .predicate(comparison)
            }
            return .expression(lhs)
        }
    }

    func canStartExpression(_ token: Token) -> Bool {
        switch token.kind {
        case .identifier, .atIdentifier, .selector, .string, .integer, .double, .formatSpecifier, .variable:
            return true
        case .keyword(let keyword):
            switch keyword {
            case .true, .yes, .false, .no, .null, .nil, .self, .anyKey, .subquery, .cast, .fetch:
                return true
            default:
                return false
            }
        case .symbol(let symbol):
            return symbol == .leftParen || symbol == .leftBrace || symbol == .minus || symbol == .tilde
        case .endOfInput:
            return false
        }
    }

    /// Reads `operator[options] rhs` after `lhs`; nil when no comparison operator follows.
    mutating func finishComparison(
        _ lhs: ExpressionNode, modifier: ComparisonModifier, modifierRange: SourceRange?
    ) throws(PredicateSyntaxError) -> PredicateNode? {
        guard let op = Self.comparisonOperator(current.kind) else { return nil }
        let operatorRange = current.range
        advance()
        var options: ComparisonOptions = []
        var optionsRange: SourceRange?
        if isSymbol(.leftBracket) {
            let open = current.range
            advance()
            guard case .identifier(let letters) = current.kind, let parsed = ComparisonOptions(letters: letters) else {
                throw error(expected: "comparison options (letters c, d, n or l, as in [cd])")
            }
            options = parsed
            advance()
            let close = try expect(.rightBracket, "']' after the comparison options")
            optionsRange = open.union(close.range)
        }
        let rhs = try parseExpression()
        let comparison = ComparisonNode(
            modifier: modifier, lhs: lhs, op: op, options: options, rhs: rhs,
            modifierRange: modifierRange, operatorRange: operatorRange, optionsRange: optionsRange)
        let range = (modifierRange ?? lhs.range).union(rhs.range)
        return PredicateNode(.comparison(comparison), range: range)
    }

    static func comparisonOperator(_ kind: TokenKind) -> PredicateOperator? {
        switch kind {
        case .symbol(.equal): return .equal
        case .symbol(.notEqual): return .notEqual
        case .symbol(.less): return .less
        case .symbol(.lessOrEqual): return .lessOrEqual
        case .symbol(.greater): return .greater
        case .symbol(.greaterOrEqual): return .greaterOrEqual
        case .keyword(.between): return .between
        case .keyword(.in): return .in
        case .keyword(.contains): return .contains
        case .keyword(.beginsWith): return .beginsWith
        case .keyword(.endsWith): return .endsWith
        case .keyword(.like): return .like
        case .keyword(.matches): return .matches
        case .keyword(.utiConformsTo): return .utiConformsTo
        case .keyword(.utiEquals): return .utiEquals
        default: return nil
        }
    }
}
