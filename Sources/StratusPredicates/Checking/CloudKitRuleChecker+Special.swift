import StratusModel

/// The special shapes: token search (`self CONTAINS`, `tokenize:using:`) and location radius
/// (`distanceToLocation:fromLocation:`), plus sort descriptors.
extension CloudKitRuleChecker {
    static let tokenizeAdvice =
        "tokenize:using: works only as ANY tokenize:using:(\"words\", \"cdl\") IN allTokens (any word) or ALL tokenize:using:(\"words\", \"cdl\") IN allTokens (every word)"

    mutating func checkTokens(
        _ c: ComparisonNode, lhs: Operand, rhs: Operand, range: SourceRange, negation: SourceRange?, valid: Bool
    ) -> [FilterTerm]? {
        guard case .selfObject = lhs, c.op == .contains, c.modifier == .direct else {
            let selfRange: SourceRange
            if case .selfObject(let r) = lhs { selfRange = r } else if case .selfObject(let r) = rhs { selfRange = r } else { selfRange = range }
            report(.selfMisuse,
                   "self stands for the whole record and works only in a token search: self CONTAINS \"words\"",
                   selfRange)
            return nil
        }
        var ok = valid
        if let negation {
            report(.notAroundTokens, "CloudKit doesn't support NOT around a token search (self CONTAINS ...)", negation)
            ok = false
        }
        switch rhs {
        case .constant(.value(.string(let text), let textRange)):
            return tokenTerm(text: text, textRange: textRange, matchAll: false, range: range, valid: ok)
        case .constant(.placeholder), .invalid:
            _ = searchableFields(range: range)
            return nil
        default:
            report(.selfMisuse, "self CONTAINS needs a string of words to search for", c.rhs.range)
            return nil
        }
    }

    /// `ANY|ALL tokenize:using:(text, "cdl") IN allTokens`.
    mutating func checkTokenize(
        _ c: ComparisonNode, lhs: Operand, rhs: Operand, range: SourceRange, negation: SourceRange?
    ) -> [FilterTerm]? {
        guard case .tokenize(let arguments, _) = lhs, case .allTokens = rhs, c.op == .in,
              c.modifier == .any || c.modifier == .all
        else {
            report(.tokenizeShape, Self.tokenizeAdvice, range)
            return nil
        }
        var ok = true
        if let optionsRange = c.optionsRange {
            report(.comparisonOptions, "CloudKit takes no comparison options here: the options go inside tokenize:using:", optionsRange)
            ok = false
        }
        if let negation {
            report(.notAroundTokens, "CloudKit doesn't support NOT around a token search", negation)
            ok = false
        }
        switch arguments[1] {
        case .constant(.value(.string(let options), let optionsRange)):
            let letters = Set(options.lowercased())
            if letters != ["c", "d", "l"] {
                report(.tokenizeShape,
                       "tokenize:using: needs the options \"cdl\" (case- and diacritic-insensitive, locale-aware), as CloudKit requires",
                       optionsRange)
                ok = false
            }
        case .invalid, .constant(.placeholder):
            ok = false
        default:
            report(.tokenizeShape, "tokenize:using: takes its options as a string: \"cdl\"", c.lhs.range)
            ok = false
        }
        switch arguments[0] {
        case .constant(.value(.string(let text), let textRange)):
            return tokenTerm(text: text, textRange: textRange, matchAll: c.modifier == .all, range: range, valid: ok)
        case .invalid, .constant(.placeholder):
            return nil
        default:
            report(.tokenizeShape, "tokenize:using: needs a string of words as its first argument", c.lhs.range)
            return nil
        }
    }

    mutating func tokenTerm(text: String, textRange: SourceRange, matchAll: Bool, range: SourceRange, valid: Bool) -> [FilterTerm]? {
        var seen = Set<String>()
        let tokens = TextTokenizer.tokens(text).filter { seen.insert($0).inserted }
        var ok = valid
        if tokens.isEmpty {
            report(.emptyTokenSearch,
                   "The search text has no words CloudKit searches for (stop words such as 'the' and punctuation are ignored)",
                   textRange)
            ok = false
        }
        guard let fields = searchableFields(range: range), ok else { return nil }
        return [.tokens(tokens, matchAll: matchAll, fields: fields)]
    }

    /// The SEARCHABLE string fields, or nil after reporting there are none. Empty without a
    /// schema (meaning every string field).
    mutating func searchableFields(range: SourceRange) -> [String]? {
        guard let schema else { return [] }
        let fields = schema.sortedFields.filter { $0.isSearchable && $0.type.base == .string }.map(\.name)
        if fields.isEmpty {
            report(.notSearchable,
                   "No field of record type '\(recordType)' is marked searchable: a token search needs at least one SEARCHABLE string field",
                   range)
            return nil
        }
        return fields
    }

    // MARK: - Distance

    mutating func checkDistance(
        _ c: ComparisonNode, lhs: Operand, rhs: Operand, negation: SourceRange?, valid: Bool
    ) -> [FilterTerm]? {
        var ok = valid
        if let negation {
            report(.notAroundDistance, "CloudKit doesn't support NOT with distanceToLocation:fromLocation:", negation)
            ok = false
        }
        if c.modifier != .direct {
            report(.distanceShape, "distanceToLocation:fromLocation: takes no ANY/ALL", c.modifierRange)
            ok = false
        }
        let distanceOnLeft: Bool
        let call: [Operand], radius: Operand
        if case .distance(let arguments, _) = lhs {
            (distanceOnLeft, call, radius) = (true, arguments, rhs)
        } else if case .distance(let arguments, _) = rhs {
            (distanceOnLeft, call, radius) = (false, arguments, lhs)
        } else {
            return nil
        }
        let op = distanceOnLeft ? c.op : (c.op.flipped ?? c.op)
        let inclusive: Bool
        switch op {
        case .less: inclusive = false
        case .lessOrEqual: inclusive = true
        case .greater, .greaterOrEqual:
            report(.distanceOutside,
                   "CloudKit finds only locations inside a circle: compare distanceToLocation:fromLocation: with < radius (there is no 'farther than')",
                   c.operatorRange)
            return nil
        default:
            report(.distanceShape,
                   "distanceToLocation:fromLocation:(field, location) must be compared with < radius (kilometres)",
                   c.operatorRange)
            return nil
        }

        var field: FieldRef?
        var center: Location?
        var centerPending = false
        for argument in call {
            switch argument {
            case .field(let ref) where field == nil:
                field = ref
            case .constant(.value(.location(let location), let range)):
                if location.isValid { center = location } else {
                    report(.invalidLocation, CloudKitRuleChecker.offTheEarth, range)
                    ok = false
                }
            case .constant(.placeholder):
                centerPending = true
            case .constant(let constant):
                report(.distanceLocation,
                       "distanceToLocation:fromLocation: needs a location to measure from (a location argument, location:LAT,LON)",
                       constant.range)
                ok = false
            case .invalid:
                ok = false
            default:
                ok = false
                report(.distanceShape, "distanceToLocation:fromLocation: takes one location field and one location", c.lhs.range.union(c.rhs.range))
            }
        }
        guard let field else {
            if ok { report(.distanceShape, "distanceToLocation:fromLocation: needs a location field as one of its arguments", c.lhs.range.union(c.rhs.range)) }
            return nil
        }
        var kilometres: Double?
        switch radius {
        case .constant(.value(.int64(let number), _)): kilometres = Double(number)
        case .constant(.value(.double(let number), _)): kilometres = number
        case .constant(.placeholder), .invalid: break
        default:
            report(.distanceShape, "The radius must be a number of kilometres", radius.range)
            ok = false
        }
        if let km = kilometres, !(km >= 0 && km.isFinite) {
            report(.distanceShape, "The radius must be a non-negative number of kilometres", radius.range)
            ok = false
        }
        guard let key = resolve(field, usage: .distance, sample: .location(center ?? Location(latitude: 0, longitude: 0)), opText: "distance"),
              ok, !centerPending, let center, let kilometres
        else { return nil }
        return [.withinDistance(key, center: center, kilometres: kilometres, inclusive: inclusive)]
    }
}

extension CloudKitRuleChecker.Operand {
    var range: SourceRange? {
        switch self {
        case .field(let ref): return ref.range
        case .selfObject(let range), .distance(_, let range), .tokenize(_, let range), .allTokens(let range): return range
        case .constant(let constant): return constant.range
        case .invalid: return nil
        }
    }
}
