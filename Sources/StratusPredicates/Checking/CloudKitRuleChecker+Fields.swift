import StratusModel

/// Field resolution against the schema: existence, type fit, value coercion and indexes.
extension CloudKitRuleChecker {
    /// What a term does with its field, which decides the type it needs and the index.
    enum FieldUsage: Equatable {
        /// `==`, `!=`, IN.
        case equality
        /// `<`, `<=`, `>`, `>=`, BETWEEN.
        case range
        /// ANY/CONTAINS/IN on a list.
        case listMembership
        case beginsWith(any: Bool)
        case distance

        var index: FieldIndexes {
            switch self {
            case .range, .beginsWith: return .sortable
            case .equality, .listMembership, .distance: return .queryable
            }
        }
    }

    static func baseType(of value: FieldValue) -> FieldType.BaseType {
        switch value {
        case .string: return .string
        case .int64: return .int64
        case .double: return .double
        case .timestamp: return .timestamp
        case .bytes: return .bytes
        case .asset: return .asset
        case .reference: return .reference
        case .location: return .location
        case .list(let base, _): return base
        }
    }

    /// The key and indexes `name` has in the schema (a custom field, or a system field under any
    /// of its names), or nil when the schema has no such field.
    static func schemaKey(_ name: String, in schema: RecordTypeSchema) -> (FieldKey, FieldIndexes?)? {
        if let custom = schema.fields[name] { return (.custom(name, custom.type), custom.indexes) }
        if let system = SystemField(key: name) { return (.system(system), schema.systemIndexes[system] ?? []) }
        return nil
    }

    /// The key for `field` used as `usage`, or nil after reporting why it can't be.
    mutating func resolve(_ field: FieldRef, usage: FieldUsage, sample: FieldValue?, opText: String) -> FieldKey? {
        let name = field.name
        let key: FieldKey
        var indexes: FieldIndexes?
        if let schema {
            guard let found = Self.schemaKey(name, in: schema) else {
                reportUnknownField(name, range: field.range, sortIndex: nil)
                return nil
            }
            (key, indexes) = found
            if let custom = schema.fields[name], custom.isEncrypted {
                report(.unqueryableType, "Field '\(name)' has a value type of \(custom.valueTypeName) and cannot be queried using filter type \(Self.filterTypeName(opText))", field.range)
                return nil
            }
        } else if let system = SystemField(key: name) {
            key = .system(system)
        } else if let learned = learnedTypes[name] {
            key = .custom(name, learned)
        } else {
            let base = sample.map(Self.baseType(of:)) ?? .string
            let type: FieldType
            switch usage {
            case .equality, .range: type = FieldType(base)
            case .listMembership: type = .list(base)
            case .beginsWith(let any): type = any ? .list(.string) : .string
            case .distance: type = .location
            }
            inferredTypes[name] = type
            return .custom(name, type)
        }
        guard checkType(key, usage: usage, range: field.range, opText: opText) else { return nil }
        if let indexes, !indexes.contains(usage.index) {
            let word = usage.index == .sortable ? "sortable" : "queryable"
            report(usage.index == .sortable ? .notSortable : .notQueryable,
                   "Field '\(key.name)' is not marked \(word)", field.range)
            return nil
        }
        return key
    }

    /// The Web Services comparator an operator is sent as, which CloudKit's messages name.
    static func filterTypeName(_ opText: String) -> String {
        switch opText.uppercased() {
        case "==", "=": return "EQUALS"
        case "!=", "<>": return "NOT_EQUALS"
        case "<": return "LESS_THAN"
        case "<=", "=<": return "LESS_THAN_OR_EQUALS"
        case ">": return "GREATER_THAN"
        case ">=", "=>": return "GREATER_THAN_OR_EQUALS"
        case "BEGINSWITH": return "BEGINS_WITH"
        case "CONTAINS": return "LIST_CONTAINS"
        case let other: return other
        }
    }

    /// Whether the field's type takes `usage`; reports why not.
    mutating func checkType(_ key: FieldKey, usage: FieldUsage, range: SourceRange, opText: String) -> Bool {
        let type = key.type
        let name = key.name
        let shown = PredicatePrinter.keyText(name)
        guard type.base.isIndexable else {
            report(.unqueryableType, "Field '\(name)' has type \(type), which CloudKit can't index or query", range)
            return false
        }
        switch usage {
        case .equality:
            if type.isList {
                let advice = opText == "IN"
                    ? "ANY \(shown) IN {...}"
                    : "ANY \(shown) == value, or \(shown) CONTAINS value"
                report(.listNeedsAny, "Field '\(name)' is a list (\(type)): to test its members write \(advice)", range)
                return false
            }
            if type.base == .location {
                report(.wrongOperatorForType,
                       "Field '\(name)' is a LOCATION: query it with distanceToLocation:fromLocation:(\(shown), %@) < radius",
                       range)
                return false
            }
        case .range:
            if type.isList || !type.base.isOrdered {
                report(.wrongOperatorForType,
                       "\(opText) needs a STRING, INT64, DOUBLE or TIMESTAMP field; '\(name)' is \(type)", range)
                return false
            }
        case .listMembership:
            if !type.isList {
                if type.base == .string && (opText == "CONTAINS" || opText == "IN") {
                    report(.substringContains,
                           "\(opText) on the string field '\(name)' would be a substring test, which CloudKit doesn't support: use BEGINSWITH, or self CONTAINS 'word' for a token search",
                           range)
                } else {
                    report(.wrongOperatorForType,
                           "\(opText) tests list membership, but '\(name)' is \(type), not a list: write \(shown) == value",
                           range)
                }
                return false
            }
        case .beginsWith(let any):
            if type.base != .string {
                report(.wrongOperatorForType, "BEGINSWITH works on STRING and LIST<STRING> fields; '\(name)' is \(type)", range)
                return false
            }
            if type.isList && !any {
                report(.listNeedsAny, "Field '\(name)' is a list (\(type)): write ANY \(shown) BEGINSWITH \"prefix\"", range)
                return false
            }
        case .distance:
            if type != .location {
                report(.wrongOperatorForType,
                       "distanceToLocation:fromLocation: needs a LOCATION field; '\(name)' is \(type)", range)
                return false
            }
        }
        return true
    }

    static let offTheEarth = "The location is off the Earth (latitude -90...90, longitude -180...180)"

    /// `value` as the field's type (a record name becomes a reference, a location must be on
    /// the Earth); nil after reporting.
    mutating func coerce(_ value: FieldValue, to key: FieldKey, range: SourceRange) -> FieldValue? {
        let base = key.type.base
        switch (base, value) {
        case (.string, .string), (.int64, .int64), (.int64, .double), (.double, .int64), (.double, .double),
             (.reference, .reference):
            return value
        case (.location, .location(let location)):
            guard location.isValid else {
                report(.invalidLocation, CloudKitRuleChecker.offTheEarth, range)
                return nil
            }
            return value
        case (.timestamp, .timestamp):
            return value.normalized
        case (.reference, .string(let recordName)):
            return .reference(Reference(recordName: recordName))
        default:
            var message = "Field '\(key.name)' is \(base.rawValue), but the value is \(FieldValueDescription.article(of: value))"
            switch base {
            case .timestamp: message += "; pass a date argument (date:2024-05-01T00:00:00Z), now(), or CAST(seconds, \"NSDate\")"
            case .reference: message += "; pass a reference (ref:RECORDNAME) or a record name"
            default: break
            }
            report(.typeMismatch, message, range)
            return nil
        }
    }

    mutating func reportUnknownField(_ name: String, range: SourceRange?, sortIndex: Int?) {
        var message = "Unknown field '\(name)' in record type '\(recordType)'"
        if let suggestion = suggestion(for: name) { message += "; did you mean '\(suggestion)'?" }
        diagnostics.append(PredicateDiagnostic(.unknownField, message, range: range, sortIndex: sortIndex))
    }

    /// The closest known key, if it is close enough to be a likely typo.
    func suggestion(for name: String) -> String? {
        guard let schema else { return nil }
        let candidates = schema.fields.keys.sorted()
            + SystemField.allCases.filter { schema.systemIndexes[$0] != nil }.map(\.predicateKey)
        let lowered = name.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = Self.editDistance(lowered, candidate.lowercased())
            if best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best, distance <= max(1, name.count / 3) else { return nil }
        return candidate
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
