import StratusModel
import StratusPredicates
import StratusCloud

/// Narrows the query subscriptions of one record type to those a record can match, so a save
/// with a thousand subscriptions evaluates a handful.
///
/// Each subscription is filed under one of its terms, its *guard*, which every matching record
/// must satisfy: equality, IN and list membership under a hash of the value (with the keys
/// `ValueSemantics.equal` compares); BEGINSWITH under its prefix; `<`, `<=`, `>`, `>=` and
/// BETWEEN in a list sorted by the bound, searched by halves. A record's candidates are the
/// subscriptions whose guard its value can satisfy (a superset: every key here is at least as
/// coarse as the evaluator's test), and the evaluator then decides exactly. Subscriptions
/// without such a term, or whose predicate uses `now()`, are always candidates.
struct SubscriptionGuards: Sendable {
    private enum EqualityKey: Hashable, Sendable {
        case string(String)
        case number(Double)
        case date(Int64)
        case reference(String)
    }

    private enum Kind: Hashable, Sendable {
        case number, string, date, reference
    }

    private struct RangeKey: Hashable, Sendable {
        var key: FieldKey
        var op: ComparisonOperator
        var kind: Kind
    }

    private enum Guard {
        case equality(FieldKey, [EqualityKey])
        case prefix(FieldKey, String)
        case range(RangeKey, FieldValue)
    }

    private var always: [Int] = []
    private var equality: [FieldKey: [EqualityKey: [Int]]] = [:]
    private var prefixes: [FieldKey: (lengths: [Int], members: [String: [Int]])] = [:]
    /// Each group sorted by its bound, ascending.
    private var ranges: [(group: RangeKey, bounds: [FieldValue], members: [Int])] = []

    /// `filters[i]` is subscription `i`'s filter, nil when it cannot fire; `indexable[i]` false
    /// for predicates whose values change from one transaction to the next (`now()`).
    init(filters: [QueryFilter?], indexable: [Bool]) {
        var rangeLists: [RangeKey: [(FieldValue, Int)]] = [:]
        for (index, filter) in filters.enumerated() {
            guard let filter, !filter.terms.contains(.never) else { continue }
            guard indexable[index], let chosen = SubscriptionGuards.guardTerm(of: filter) else {
                always.append(index)
                continue
            }
            switch chosen {
            case .equality(let key, let keys):
                for value in Set(keys) { equality[key, default: [:]][value, default: []].append(index) }
            case .prefix(let key, let prefix):
                var group = prefixes[key] ?? (lengths: [], members: [:])
                let length = prefix.unicodeScalars.count
                if !group.lengths.contains(length) { group.lengths.append(length) }
                group.members[prefix, default: []].append(index)
                prefixes[key] = group
            case .range(let group, let bound):
                rangeLists[group, default: []].append((bound, index))
            }
        }
        for (group, list) in rangeLists {
            let sorted = list.sorted { (ValueSemantics.order($0.0, $1.0) ?? 0) < 0 }
            ranges.append((group, sorted.map(\.0), sorted.map(\.1)))
        }
    }

    /// The subscriptions (by index, ascending) the record, in any of `states`, may match.
    func candidates(_ states: [any FilterableRecord]) -> [Int] {
        var found = always
        for (key, table) in equality {
            for state in states {
                for value in SubscriptionGuards.values(state.value(for: key)) {
                    if let equalityKey = SubscriptionGuards.equalityKey(value), let members = table[equalityKey] { found += members }
                }
            }
        }
        for (key, group) in prefixes {
            for state in states {
                for case .string(let text) in SubscriptionGuards.values(state.value(for: key)) {
                    let scalars = text.unicodeScalars
                    for length in group.lengths where scalars.count >= length {
                        let prefix = String(String.UnicodeScalarView(scalars.prefix(length)))
                        if let members = group.members[prefix] { found += members }
                    }
                }
            }
        }
        for range in ranges {
            for state in states {
                guard let value = state.value(for: range.group.key), SubscriptionGuards.kind(value) == range.group.kind else { continue }
                found += SubscriptionGuards.satisfying(range.group.op, value, bounds: range.bounds, members: range.members)
            }
        }
        if found.count > 1 {
            found.sort()
            var unique: [Int] = []
            unique.reserveCapacity(found.count)
            for index in found where unique.last != index { unique.append(index) }
            return unique
        }
        return found
    }

    // MARK: - Choosing and keying

    private static func guardTerm(of filter: QueryFilter) -> Guard? {
        var best: (rank: Int, guard: Guard)?
        func consider(_ rank: Int, _ candidate: Guard?) {
            guard let candidate else { return }
            if best == nil || rank < best!.rank { best = (rank, candidate) }
        }
        for term in filter.terms {
            switch term {
            case .compare(let key, .equal, let value):
                consider(0, equalityKey(value).map { .equality(key, [$0]) })
            case .oneOf(let key, let values, false), .listContainsAny(let key, let values, false):
                let keys = values.compactMap(equalityKey)
                if keys.count == values.count, !keys.isEmpty { consider(0, .equality(key, keys)) }
            case .listContains(let key, let value, false):
                consider(0, equalityKey(value).map { .equality(key, [$0]) })
            case .beginsWith(let key, let prefix, false) where !prefix.isEmpty:
                consider(1, .prefix(key, prefix))
            case .compare(let key, let op, let bound) where op != .equal && op != .notEqual:
                consider(2, kind(bound).map { .range(RangeKey(key: key, op: op, kind: $0), bound) })
            case .between(let key, let low, _):
                consider(2, kind(low).map { .range(RangeKey(key: key, op: .greaterOrEqual, kind: $0), low) })
            default:
                break
            }
        }
        return best?.guard
    }

    /// A key equal values share (coarser than `ValueSemantics.equal`, never finer).
    private static func equalityKey(_ value: FieldValue) -> EqualityKey? {
        switch value {
        case .string(let text): return .string(ValueSemantics.equalityKey(text))
        case .int64(let number): return .number(Double(number))
        case .double(let number): return number.isNaN ? nil : .number(number)
        case .timestamp(let date): return .date(FieldValue.milliseconds(date))
        case .reference(let reference): return .reference(reference.recordName)
        default: return nil
        }
    }

    private static func kind(_ value: FieldValue) -> Kind? {
        switch value {
        case .int64: return .number
        case .double(let number): return number.isNaN ? nil : .number
        case .string: return .string
        case .timestamp: return .date
        case .reference: return .reference
        default: return nil
        }
    }

    private static func values(_ value: FieldValue?) -> [FieldValue] {
        switch value {
        case nil: return []
        case .list(_, let items)?: return items
        case let scalar?: return [scalar]
        }
    }

    /// The members whose bound makes `value op bound` true: a prefix or suffix of the sorted list.
    private static func satisfying(_ op: ComparisonOperator, _ value: FieldValue, bounds: [FieldValue], members: [Int]) -> ArraySlice<Int> {
        // The first position whose bound `passes`, for a test that is false then true along the list.
        func firstIndex(where passes: (Int) -> Bool) -> Int {
            var low = 0, high = bounds.count
            while low < high {
                let middle = (low + high) / 2
                if passes(ValueSemantics.order(bounds[middle], value) ?? 0) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        switch op {
        case .greater: return members[..<firstIndex { $0 >= 0 }]          // bound < value
        case .greaterOrEqual: return members[..<firstIndex { $0 > 0 }]    // bound <= value
        case .less: return members[firstIndex { $0 > 0 }...]               // bound > value
        case .lessOrEqual: return members[firstIndex { $0 >= 0 }...]       // bound >= value
        case .equal, .notEqual: return members[...]
        }
    }
}
