import StratusModel

/// The in-memory evaluator: decides which records a subscription matches, and is tested
/// against the SQL planner on random predicates and records.
///
/// A record with no value for a term's field matches no term, negated or not, exactly as an
/// index lookup finds no row for it.
extension QueryFilter {
    public func matches(_ record: some FilterableRecord) -> Bool {
        terms.allSatisfy { $0.matches(record) }
    }
}

extension FilterTerm {
    public func matches(_ record: some FilterableRecord) -> Bool {
        switch self {
        case .never:
            return false
        case .compare(let key, let op, let value):
            guard let actual = scalar(record, key) else { return false }
            switch op {
            case .equal: return ValueSemantics.equal(actual, value)
            case .notEqual: return comparable(actual) && !ValueSemantics.equal(actual, value)
            case .less: return (ValueSemantics.order(actual, value) ?? 0) < 0
            case .lessOrEqual: return ValueSemantics.order(actual, value).map { $0 <= 0 } ?? false
            case .greater: return (ValueSemantics.order(actual, value) ?? 0) > 0
            case .greaterOrEqual: return ValueSemantics.order(actual, value).map { $0 >= 0 } ?? false
            }
        case .oneOf(let key, let values, let negated):
            guard let actual = scalar(record, key), comparable(actual) else { return false }
            let hit = values.contains { ValueSemantics.equal(actual, $0) }
            return hit != negated
        case .listContains(let key, let value, let negated):
            guard let items = list(record, key) else { return false }
            let hit = items.contains { ValueSemantics.equal($0, value) }
            return hit != negated
        case .listContainsAny(let key, let values, let negated):
            guard let items = list(record, key) else { return false }
            let hit = items.contains { item in values.contains { ValueSemantics.equal(item, $0) } }
            return hit != negated
        case .beginsWith(let key, let prefix, let negated):
            let hit: Bool
            switch record.value(for: key) {
            case .string(let text)?:
                hit = ValueSemantics.hasPrefix(text, prefix)
            case .list(_, let items)?:
                hit = items.contains {
                    if case .string(let text) = $0 { return ValueSemantics.hasPrefix(text, prefix) }
                    return false
                }
            default:
                return false
            }
            return hit != negated
        case .between(let key, let low, let high):
            guard let actual = scalar(record, key),
                  let lower = ValueSemantics.order(actual, low), let upper = ValueSemantics.order(actual, high)
            else { return false }
            return lower >= 0 && upper <= 0
        case .tokens(let tokens, let matchAll, let fields):
            guard !tokens.isEmpty else { return false }
            var found = Set<String>()
            for name in fields.isEmpty ? record.customFieldNames : fields {
                switch record.value(for: .custom(name, .string)) {
                case .string(let text)?:
                    found.formUnion(TextTokenizer.tokens(text))
                case .list(_, let items)?:
                    for case .string(let text) in items { found.formUnion(TextTokenizer.tokens(text)) }
                default:
                    break
                }
            }
            return matchAll ? tokens.allSatisfy(found.contains) : tokens.contains(where: found.contains)
        case .withinDistance(let key, let center, let kilometres, let inclusive):
            guard case .location(let location)? = record.value(for: key) else { return false }
            let distance = location.distance(to: center)
            return inclusive ? distance <= kilometres : distance < kilometres
        }
    }

    /// A present, non-list value.
    func scalar(_ record: some FilterableRecord, _ key: FieldKey) -> FieldValue? {
        guard let value = record.value(for: key) else { return nil }
        if case .list = value { return nil }
        return value
    }

    func list(_ record: some FilterableRecord, _ key: FieldKey) -> [FieldValue]? {
        guard case .list(_, let items)? = record.value(for: key) else { return nil }
        return items
    }

    /// NaN takes part in no comparison, negated or not.
    func comparable(_ value: FieldValue) -> Bool {
        if case .double(let number) = value { return !number.isNaN }
        return true
    }
}
