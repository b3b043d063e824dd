/// Range-free copies, for asking whether two trees say the same thing regardless of where
/// (or how) they were written: `parse(print(tree)).withoutRanges == tree.withoutRanges`.
extension PredicateNode {
    public var withoutRanges: PredicateNode {
        let kind: Kind
        switch self.kind {
        case .truePredicate, .falsePredicate: kind = self.kind
        case .and(let items): kind = .and(items.map(\.withoutRanges))
        case .or(let items): kind = .or(items.map(\.withoutRanges))
        case .not(let inner): kind = .not(inner.withoutRanges)
        case .comparison(let comparison): kind = .comparison(comparison.withoutRanges)
        }
        return PredicateNode(kind, range: .none)
    }
}

extension ComparisonNode {
    public var withoutRanges: ComparisonNode {
        ComparisonNode(
            modifier: modifier, lhs: lhs.withoutRanges, op: op, options: options, rhs: rhs.withoutRanges,
            modifierRange: modifierRange == nil ? nil : SourceRange.none, operatorRange: .none,
            optionsRange: optionsRange == nil ? nil : SourceRange.none)
    }
}

extension ExpressionNode {
    public var withoutRanges: ExpressionNode {
        let kind: Kind
        switch self.kind {
        case .literal, .value, .key, .evaluatedObject, .variable, .formatArgument, .anyKey:
            kind = self.kind
        case .aggregate(let items): kind = .aggregate(items.map(\.withoutRanges))
        case .function(let name, let arguments): kind = .function(name, arguments.map(\.withoutRanges))
        case .member(let base, let name): kind = .member(base.withoutRanges, name)
        case .index(let base, let subscriptKind):
            if case .expression(let index) = subscriptKind {
                kind = .index(base.withoutRanges, .expression(index.withoutRanges))
            } else {
                kind = .index(base.withoutRanges, subscriptKind)
            }
        case .unary(let op, let operand): kind = .unary(op, operand.withoutRanges)
        case .binary(let op, let lhs, let rhs): kind = .binary(op, lhs.withoutRanges, rhs.withoutRanges)
        case .cast(let value, let type): kind = .cast(value.withoutRanges, type.withoutRanges)
        case .subquery(let collection, let variable, let predicate):
            kind = .subquery(collection.withoutRanges, variable, predicate.withoutRanges)
        case .assignment(let name, let value): kind = .assignment(name, value.withoutRanges)
        }
        return ExpressionNode(kind, range: .none)
    }
}
