import StratusModel

/// Sort descriptors: the field exists, has a sortable type and the SORTABLE index.
extension CloudKitRuleChecker {
    mutating func check(_ sorts: [QuerySort]) -> [SortTerm]? {
        var result: [SortTerm] = []
        var ok = true
        for (index, sort) in sorts.enumerated() {
            if let term = check(sort, index: index) { result.append(term) } else { ok = false }
        }
        return ok ? result : nil
    }

    mutating func check(_ sort: QuerySort, index: Int) -> SortTerm? {
        func fail(_ code: PredicateDiagnostic.Code, _ message: String) -> SortTerm? {
            diagnostics.append(PredicateDiagnostic(code, message, range: nil, sortIndex: index))
            return nil
        }
        let name = sort.key
        let key: FieldKey
        var indexes: FieldIndexes?
        if let schema {
            guard let found = Self.schemaKey(name, in: schema) else {
                reportUnknownField(name, range: nil, sortIndex: index)
                return nil
            }
            (key, indexes) = found
        } else if let system = SystemField(key: name) {
            key = .system(system)
        } else {
            key = .custom(name, learnedTypes[name] ?? inferredTypes[name] ?? (sort.distanceFrom == nil ? .string : .location))
        }
        let type = key.type
        if type.isList { return fail(.sortType, "Can't sort by '\(name)': lists (\(type)) can't be sorted") }
        if !type.base.isIndexable { return fail(.sortType, "Can't sort by '\(name)': \(type) fields can't be sorted") }
        if let center = sort.distanceFrom {
            guard type.base == .location else {
                return fail(.sortType, "Can't sort by distance on '\(name)': it is \(type), not a LOCATION")
            }
            guard center.isValid else {
                diagnostics.append(PredicateDiagnostic(
                    .invalidLocation, "The sort's location is off the Earth", range: nil, sortIndex: index))
                return nil
            }
            if let indexes, !indexes.contains(.queryable) {
                return fail(.notQueryable, "Field '\(key.name)' is not marked queryable")
            }
        } else {
            if type.base == .location {
                return fail(.sortType, "Sort the location field '\(name)' by distance from a point")
            }
            if let indexes, !indexes.contains(.sortable) {
                return fail(.notSortable, "Field '\(key.name)' is not marked sortable")
            }
        }
        return SortTerm(key: key, ascending: sort.ascending, distanceFrom: sort.distanceFrom)
    }
}
