/// Expressions: operator precedence climbing over unary, postfix and primary expressions.
extension PredicateParser {
    mutating func parseExpression() throws(PredicateSyntaxError) -> ExpressionNode {
        try parseBinary(minimumPrecedence: 1, lhs: nil)
    }

    /// Binary operators at `minimumPrecedence` or tighter, continuing from `lhs` if given.
    mutating func parseBinary(
        minimumPrecedence: Int, lhs: ExpressionNode?
    ) throws(PredicateSyntaxError) -> ExpressionNode {
        var left: ExpressionNode
        if let lhs { left = lhs } else { left = try parseUnary() }
        var chain = 0
        defer { depth -= chain }
        while case .symbol(let symbol) = current.kind, let op = BinaryOperator(symbol),
              op.precedence >= minimumPrecedence {
            advance()
            chain += 1
            try enter()
            let next = op.isRightAssociative ? op.precedence : op.precedence + 1
            let right = try parseBinary(minimumPrecedence: next, lhs: nil)
            left = ExpressionNode(.binary(op, left, right), range: left.range.union(right.range))
        }
        return left
    }

    mutating func parseUnary() throws(PredicateSyntaxError) -> ExpressionNode {
        let token = current
        let op: UnaryOperator
        switch token.kind {
        case .symbol(.minus): op = .negate
        case .symbol(.tilde): op = .bitwiseNot
        default: return try parsePostfix(parsePrimary())
        }
        advance()
        if op == .negate, let literal = negativeLiteral() {
            let node = ExpressionNode(.literal(literal), range: token.range.union(current.range))
            advance()
            return try parsePostfix(node)
        }
        try enter()
        defer { depth -= 1 }
        let operand = try parseUnary()
        return ExpressionNode(.unary(op, operand), range: token.range.union(operand.range))
    }

    /// `-` directly before a number folds into a negative literal (so `-5` prints back as `-5`).
    func negativeLiteral() -> Literal? {
        switch current.kind {
        case .integer(let magnitude):
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            return .double(-Double(magnitude))
        case .double(let value):
            return .double(-value)
        default:
            return nil
        }
    }

    /// `.key` and `[index]` after an expression.
    mutating func parsePostfix(_ base: ExpressionNode) throws(PredicateSyntaxError) -> ExpressionNode {
        var node = base
        var chain = 0
        defer { depth -= chain }
        while true {
            if isSymbol(.dot) {
                advance()
                let name: String
                switch current.kind {
                case .identifier(let text), .atIdentifier(let text): name = text
                default: throw keyError(expected: "a key after '.'")
                }
                node = ExpressionNode(.member(node, name), range: node.range.union(current.range))
                advance()
            } else if isSymbol(.leftBracket) {
                advance()
                let subscriptKind: IndexSubscript
                switch current.kind {
                case .keyword(.first): subscriptKind = .first; advance()
                case .keyword(.last): subscriptKind = .last; advance()
                case .keyword(.size): subscriptKind = .size; advance()
                default:
                    try enter()
                    subscriptKind = .expression(try parseExpression())
                    depth -= 1
                }
                let close = try expect(.rightBracket, "']' to close the index")
                node = ExpressionNode(.index(node, subscriptKind), range: node.range.union(close.range))
            } else {
                return node
            }
            chain += 1
            try enter()
        }
    }

    /// An "expected ..." error that, for a reserved word, says how to use it as a key.
    func keyError(expected: String) -> PredicateSyntaxError {
        var result = error(expected: expected)
        if case .keyword(let keyword) = current.kind {
            let word = String(String.UnicodeScalarView(scalars[current.range.offset..<current.range.end]))
            result.message += " ('\(keyword.rawValue)' is a reserved word; write #\(word) to use it as a key)"
        }
        return result
    }

    mutating func parsePrimary() throws(PredicateSyntaxError) -> ExpressionNode {
        let token = current
        func leaf(_ kind: ExpressionNode.Kind) -> ExpressionNode {
            advance()
            return ExpressionNode(kind, range: token.range)
        }
        switch token.kind {
        case .string(let text): return leaf(.literal(.string(text)))
        case .integer(let magnitude):
            return leaf(.literal(magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .double(Double(magnitude))))
        case .double(let value): return leaf(.literal(.double(value)))
        case .keyword(.true), .keyword(.yes): return leaf(.literal(.boolean(true)))
        case .keyword(.false), .keyword(.no): return leaf(.literal(.boolean(false)))
        case .keyword(.null), .keyword(.nil): return leaf(.literal(.null))
        case .keyword(.self): return leaf(.evaluatedObject)
        case .keyword(.anyKey): return leaf(.anyKey)
        case .atIdentifier(let name): return leaf(.key(name))
        case .formatSpecifier(let spec):
            if spec == "%" {
                throw PredicateSyntaxError(
                    "expected an expression, found '%%' (a literal percent sign belongs inside a quoted string)",
                    at: token.range)
            }
            return leaf(.formatArgument(spec))
        case .identifier(let name):
            advance()
            if isSymbol(.leftParen) { return try parseCall(name, start: token.range) }
            return ExpressionNode(.key(name), range: token.range)
        case .selector(let name):
            advance()
            guard isSymbol(.leftParen) else { throw error(expected: "'(' after the function \(name)") }
            return try parseCall(name, start: token.range)
        case .keyword(.fetch):
            advance()
            guard isSymbol(.leftParen) else { throw error(expected: "'(' after FETCH") }
            return try parseCall("FETCH", start: token.range)
        case .keyword(.subquery): return try parseSubquery()
        case .keyword(.cast): return try parseCast()
        case .variable(let name):
            advance()
            guard isSymbol(.assign) else { return ExpressionNode(.variable(name), range: token.range) }
            advance()
            try enter()
            defer { depth -= 1 }
            let value = try parseExpression()
            return ExpressionNode(.assignment(name, value), range: token.range.union(value.range))
        case .symbol(.leftBrace):
            advance()
            try enter()
            defer { depth -= 1 }
            let items = try parseList(closing: .rightBrace, what: "'}' or ',' in the aggregate")
            return ExpressionNode(.aggregate(items), range: token.range.union(tokens[index - 1].range))
        case .symbol(.leftParen):
            advance()
            try enter()
            defer { depth -= 1 }
            let inner = try parseExpression()
            let close = try expect(.rightParen, "')' to close the '(' at offset \(token.range.offset)")
            return ExpressionNode(inner.kind, range: token.range.union(close.range))
        default:
            throw keyError(expected: "an expression")
        }
    }

    /// Comma-separated expressions up to `closing` (already past the opening symbol).
    mutating func parseList(closing: Symbol, what: String) throws(PredicateSyntaxError) -> [ExpressionNode] {
        var items: [ExpressionNode] = []
        if isSymbol(closing) {
            advance()
            return items
        }
        while true {
            items.append(try parseExpression())
            if isSymbol(closing) {
                advance()
                return items
            }
            _ = try expect(.comma, what)
        }
    }

    mutating func parseCall(_ name: String, start: SourceRange) throws(PredicateSyntaxError) -> ExpressionNode {
        advance()  // (
        try enter()
        defer { depth -= 1 }
        let arguments = try parseList(closing: .rightParen, what: "')' or ',' in the arguments of \(name)")
        return ExpressionNode(.function(name, arguments), range: start.union(tokens[index - 1].range))
    }

    mutating func parseSubquery() throws(PredicateSyntaxError) -> ExpressionNode {
        let start = current.range
        advance()
        _ = try expect(.leftParen, "'(' after SUBQUERY")
        try enter()
        defer { depth -= 1 }
        let collection = try parseExpression()
        _ = try expect(.comma, "',' after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw error(expected: "a $variable as the second argument of SUBQUERY")
        }
        advance()
        _ = try expect(.comma, "',' after the SUBQUERY variable")
        let predicate = try requirePredicate(try parseOr())
        let close = try expect(.rightParen, "')' to close SUBQUERY")
        return ExpressionNode(.subquery(collection, variable, predicate), range: start.union(close.range))
    }

    mutating func parseCast() throws(PredicateSyntaxError) -> ExpressionNode {
        let start = current.range
        advance()
        _ = try expect(.leftParen, "'(' after CAST")
        try enter()
        defer { depth -= 1 }
        let value = try parseExpression()
        _ = try expect(.comma, "',' between the CAST value and its type")
        let type = try parseExpression()
        let close = try expect(.rightParen, "')' to close CAST")
        return ExpressionNode(.cast(value, type), range: start.union(close.range))
    }
}
