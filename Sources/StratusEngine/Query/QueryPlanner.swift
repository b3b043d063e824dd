import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Chooses the driver of a compiled query: the most selective index that can answer one of its
/// terms, or the index of the first sort key when no term narrows much.
struct QueryPlanner {
    let type: SchemaCatalog.TypeEntry

    func plan(_ query: CompiledQuery) -> QueryPlan {
        let terms = query.filter.terms
        if terms.contains(.never) { return QueryPlan(driver: .nothing, driverIsOrdered: true, descending: false) }
        let firstSort = query.sorts.first
        let descending = firstSort.map { !$0.ascending } ?? false
        var best: (rank: Int, driver: QueryPlan.Driver, term: Int, exact: Bool)?
        var termIndex = 0
        /// `exact`: the index answers the term exactly as the evaluator would, so the term need
        /// not be checked again on each record.
        func consider(_ rank: Int, _ driver: QueryPlan.Driver, exact: Bool = true) {
            if best == nil || rank < best!.rank { best = (rank, driver, termIndex, exact) }
        }
        for (index, term) in terms.enumerated() {
            termIndex = index
            switch term {
            case .compare(.system(.recordID), .equal, .reference(let reference)):
                consider(0, .names([reference.recordName]))
            case .oneOf(.system(.recordID), let values, false):
                consider(0, .names(values.compactMap { if case .reference(let r) = $0 { return r.recordName }; return nil }))
            case .compare(let key, .equal, let value):
                if let (driver, exact) = valuesDriver(key, [value]) { consider(1, driver, exact: exact) }
            case .oneOf(let key, let values, false):
                if let (driver, exact) = valuesDriver(key, values) { consider(2, driver, exact: exact) }
            case .listContains(let key, let value, false):
                if let (driver, exact) = valuesDriver(key, [value]) { consider(2, driver, exact: exact) }
            case .listContainsAny(let key, let values, false):
                if let (driver, exact) = valuesDriver(key, values) { consider(2, driver, exact: exact) }
            case .tokens(let tokens, let matchAll, _):
                consider(3, .text(tokens: tokens, matchAll: matchAll))
            case .withinDistance(.custom(let name, _), let center, let kilometres, _):
                if let fieldID = type.fieldIDs[name] {
                    consider(3, .location(fieldID: fieldID, box: LocationBox(center: center, kilometres: kilometres)), exact: false)
                }
            case .beginsWith(let key, let prefix, false):
                // Text is indexed whole and compared by code point, as BEGINSWITH compares: the
                // rows from the prefix up to its successor are exactly the values beginning with
                // it, so they need no second look. Without a successor the range is open above.
                let successor = UTF8Order.successor(ofPrefix: prefix)
                if let driver = rangeDriver(key, lower: QueryPlan.Bound(value: .text(prefix), inclusive: true),
                                            upper: successor.map { QueryPlan.Bound(value: .text($0), inclusive: false) }) {
                    consider(4, driver, exact: successor != nil)
                }
            case .between(let key, let low, let high):
                if let lowKey = IndexKey(low)?.value, let highKey = IndexKey(high)?.value,
                   let driver = rangeDriver(key, lower: QueryPlan.Bound(value: lowKey, inclusive: true), upper: QueryPlan.Bound(value: highKey, inclusive: true)) {
                    consider(5, driver)
                }
            case .compare(let key, let op, let value) where op != .notEqual:
                guard let bound = IndexKey(value)?.value else { break }
                let inclusive = op == .lessOrEqual || op == .greaterOrEqual
                let isLower = op == .greater || op == .greaterOrEqual
                let edge = QueryPlan.Bound(value: bound, inclusive: inclusive)
                if let driver = rangeDriver(key, lower: isLower ? edge : nil, upper: isLower ? nil : edge) { consider(5, driver) }
            default:
                break
            }
        }
        // An index on the first sort key gives the order (with several sorts, of each group of
        // equal first values). A term an index answers drives instead, with the sort's index
        // kept beside it (`sortIndex`): the executor streams from that index only when the term
        // yields too many records to load and sort, so a range that matches few records (or
        // none) costs its matches, not the whole sort index. Records lacking the sort field
        // follow at the end.
        if let sort = firstSort, sort.distanceFrom == nil, query.sorts.allSatisfy({ $0.distanceFrom == nil }),
           let sortDriver = rangeDriver(sort.key, lower: nil, upper: nil) {
            let groups = query.sorts.count > 1
            if let chosen = best {
                let ordered = sameOrder(chosen.driver, sort.key)
                var plan = QueryPlan(driver: chosen.driver, driverIsOrdered: ordered, descending: descending,
                                     exactTerm: chosen.exact ? chosen.term : nil)
                plan.groupsTies = groups
                if !ordered { plan.sortIndex = (sortDriver, sort.key) }
                return plan
            }
            var plan = QueryPlan(driver: sortDriver, driverIsOrdered: true, descending: descending,
                                 appendsRecordsLackingSortField: sort.key)
            plan.groupsTies = groups
            return plan
        }
        let driver = best?.driver ?? .typeScan
        return QueryPlan(driver: driver, driverIsOrdered: query.sorts.isEmpty, descending: descending,
                         exactTerm: best.flatMap { $0.exact ? $0.term : nil })
    }

    private func sameOrder(_ driver: QueryPlan.Driver, _ key: FieldKey) -> Bool {
        switch (driver, key) {
        case (.range(let fieldID, _, _, false), .custom(let name, _)): return type.fieldIDs[name] == fieldID
        case (.values(let fieldID, _, false, true), .custom(let name, _)): return type.fieldIDs[name] == fieldID
        case (.systemTime(let time, _, _), .system(let field)): return time == systemTime(field)
        default: return false
        }
    }

    private func systemTime(_ field: SystemField) -> QueryPlan.SystemTime? {
        switch field {
        case .modTime: return .modified
        case .createTime: return .created
        default: return nil
        }
    }

    /// The driver reading `field_value` rows equal to one of `values`, and whether those rows
    /// answer the term exactly.
    private func valuesDriver(_ key: FieldKey, _ values: [FieldValue]) -> (QueryPlan.Driver, exact: Bool)? {
        guard case .custom(let name, _) = key, let fieldID = type.fieldIDs[name],
              let field = type.schema.fields[name], field.isQueryable || field.isSortable else { return nil }
        let keys = values.compactMap(IndexKey.init)
        guard keys.count == values.count, !keys.isEmpty else { return nil }
        let folded = field.type.base == .string
        let distinct = Array(Set(keys.map { folded ? IndexValue.text($0.foldedKey ?? "") : $0.value }))
        // `checkins CONTAINS %@` reads the location's cell; the evaluator decides.
        return (.values(fieldID: fieldID, keys: distinct, folded: folded, streaming: distinct.count == 1),
                IndexKey.isExact(for: field.type.base))
    }

    private func rangeDriver(_ key: FieldKey, lower: QueryPlan.Bound?, upper: QueryPlan.Bound?) -> QueryPlan.Driver? {
        switch key {
        case .custom(let name, _):
            guard let fieldID = type.fieldIDs[name], let field = type.schema.fields[name], field.isQueryable || field.isSortable,
                  field.type.base != .location else { return nil }
            return .range(fieldID: fieldID, lower: lower, upper: upper, isList: field.type.isList)
        case .system(let field):
            guard let time = systemTime(field) else { return nil }
            return .systemTime(time, lower: lower, upper: upper)
        }
    }
}
