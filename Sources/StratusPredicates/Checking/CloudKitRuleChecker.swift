import Foundation
import StratusModel

/// Checks a (bound) predicate against CloudKit's rules and, with a schema, against the record
/// type's fields and indexes, and turns what passes into a `QueryFilter`.
///
/// It reports every problem it can find, not only the first, each with its own code and the
/// range of the offending part; a filter comes out only when there are none.
public struct CloudKitRuleChecker {
    let recordType: String
    let schema: RecordTypeSchema?
    let now: Date
    var diagnostics: [PredicateDiagnostic] = []
    /// Types inferred for custom keys when there is no schema (used for sort keys).
    var inferredTypes: [String: FieldType] = [:]
    /// Without a schema, the types known of some fields (a remote's, learned from its
    /// records): a value must fit them, as it must fit a schema's. Other fields are inferred.
    let learnedTypes: [String: FieldType]

    public init(recordType: String, schema: RecordTypeSchema?, learnedTypes: [String: FieldType] = [:], now: Date) {
        self.recordType = recordType
        self.schema = schema
        self.learnedTypes = learnedTypes
        self.now = now
    }

    /// The filter and sorts for `node`, or nil with `diagnostics` saying why.
    public mutating func check(_ node: PredicateNode, sorts: [QuerySort]) -> (QueryFilter, [SortTerm])? {
        if recordType == "Users" {
            report(.usersType, "Records of type 'Users' can't be queried: fetch user records by their record IDs", nil)
        }
        let terms = check(node)
        let sortTerms = check(sorts)
        if let terms, terms.isEmpty, sorts.isEmpty, let schema,
           !(schema.systemIndexes[.recordID] ?? []).contains(.queryable) {
            report(.notQueryable, "Field 'recordName' is not marked queryable", node.range)
        }
        guard diagnostics.isEmpty, let terms, let sortTerms else { return nil }
        return (QueryFilter(terms: terms), sortTerms)
    }

    mutating func report(_ code: PredicateDiagnostic.Code, _ message: String, _ range: SourceRange?) {
        diagnostics.append(PredicateDiagnostic(code, message, range: range))
    }

    // MARK: - Compounds

    /// The terms of `node`, or nil if it (or part of it) can't be a CloudKit query.
    mutating func check(_ node: PredicateNode) -> [FilterTerm]? {
        switch node.kind {
        case .truePredicate:
            return []
        case .falsePredicate:
            return [.never]
        case .and(let items):
            var terms: [FilterTerm]? = []
            for item in items {
                let part = check(item)
                if let part, terms != nil { terms?.append(contentsOf: part) } else { terms = nil }
            }
            return terms
        case .or(let items):
            report(.orOperator, orMessage(items), node.keywordRanges.first ?? node.range)
            for item in items { _ = check(item) }
            return nil
        case .not(let inner):
            return checkNot(inner, keyword: node.keywordRanges.first ?? node.range)
        case .comparison(let comparison):
            return checkComparison(comparison, range: node.range, negation: nil)
        }
    }

    mutating func checkNot(_ inner: PredicateNode, keyword: SourceRange) -> [FilterTerm]? {
        switch inner.kind {
        case .truePredicate:
            return [.never]
        case .falsePredicate:
            return []
        case .not(let twice):
            return check(twice)
        case .and:
            report(.notAroundAnd,
                   "CloudKit can't negate an AND (NOT (a AND b) would need OR): negate the single conditions instead, or run separate queries",
                   keyword)
            _ = check(inner)
            return nil
        case .or:
            return check(inner)
        case .comparison(let comparison):
            return checkComparison(comparison, range: inner.range, negation: keyword)
        }
    }

    /// Says what to write instead of OR; when every branch sets one field equal to a constant,
    /// spells out the IN form.
    func orMessage(_ items: [PredicateNode]) -> String {
        var field: String?
        var values: [String] = []
        var sameField = true
        for item in items {
            guard case .comparison(let c) = item.kind, c.modifier == .direct, c.op == .equal, c.options.isEmpty,
                  let pair = Self.keyAndConstant(c), field == nil || field == pair.0
            else {
                sameField = false
                break
            }
            field = pair.0
            values.append(PredicatePrinter.format(pair.1))
        }
        if sameField, let field {
            return "CloudKit doesn't support OR: to match one of several values write \(PredicatePrinter.keyText(field)) IN {\(values.joined(separator: ", "))}"
        }
        return "CloudKit doesn't support OR: to match one field against several values use IN {...}; otherwise run one query per alternative and merge the results"
    }

    static func keyAndConstant(_ c: ComparisonNode) -> (String, ExpressionNode)? {
        func isConstant(_ e: ExpressionNode) -> Bool {
            switch e.kind {
            case .literal, .value, .formatArgument: return true
            default: return false
            }
        }
        if case .key(let name) = c.lhs.kind, isConstant(c.rhs) { return (name, c.rhs) }
        if case .key(let name) = c.rhs.kind, isConstant(c.lhs) { return (name, c.lhs) }
        return nil
    }
}
