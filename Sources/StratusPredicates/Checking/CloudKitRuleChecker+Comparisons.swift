import StratusModel

/// Comparisons between a field and a constant: the shapes of CKQuery's operator table.
extension CloudKitRuleChecker {
    mutating func checkComparison(_ c: ComparisonNode, range: SourceRange, negation: SourceRange?) -> [FilterTerm]? {
        switch c.op {
        case .endsWith, .like, .matches, .utiConformsTo, .utiEquals:
            let advice = c.op == .endsWith || c.op == .like || c.op == .matches
                ? ": among string operators CloudKit has only BEGINSWITH (and token search with self CONTAINS)" : ""
            report(.unsupportedOperator, "CloudKit doesn't support \(c.op.rawValue)\(advice)", c.operatorRange)
            _ = classify(c.lhs)
            _ = classify(c.rhs)
            return nil
        default:
            break
        }
        let lhs = classify(c.lhs)
        let rhs = classify(c.rhs)
        if case .tokenize = lhs { return checkTokenize(c, lhs: lhs, rhs: rhs, range: range, negation: negation) }
        if case .allTokens = rhs { return checkTokenize(c, lhs: lhs, rhs: rhs, range: range, negation: negation) }

        var valid = true
        if let optionsRange = c.optionsRange {
            report(.comparisonOptions,
                   "CloudKit takes no comparison options ([\(c.options.letters)]): string equality is already case-insensitive and BEGINSWITH case-sensitive",
                   optionsRange)
            valid = false
        }
        switch c.modifier {
        case .all:
            report(.allModifier, "CloudKit doesn't support ALL: use ANY (or SOME) for list membership", c.modifierRange)
            valid = false
        case .none:
            report(.noneModifier, "CloudKit doesn't support NONE: write NOT (ANY ...) instead", c.modifierRange)
            valid = false
        case .direct, .any:
            break
        }

        switch (lhs, rhs) {
        case (.selfObject, _), (_, .selfObject):
            return checkTokens(c, lhs: lhs, rhs: rhs, range: range, negation: negation, valid: valid)
        case (.distance, _), (_, .distance):
            return checkDistance(c, lhs: lhs, rhs: rhs, negation: negation, valid: valid)
        case (.tokenize(_, let r), _), (_, .tokenize(_, let r)), (.allTokens(let r), _):
            report(.tokenizeShape, Self.tokenizeAdvice, r)
            return nil
        case (.invalid, _), (_, .invalid):
            return nil
        case (.field, .field):
            report(.twoFields,
                   "CloudKit compares a field with a constant, not two fields with each other",
                   range)
            return nil
        case (.constant, .constant):
            report(.twoConstants,
                   "This compares two constants; CloudKit compares a field with a constant (a reserved word such as NO or FIRST used as a field name needs a #, as in #no)",
                   range)
            return nil
        case (.field(let field), .constant(let constant)):
            guard valid else { return nil }
            return checkFieldConstant(c, field: field, constant: constant, constantOnLeft: false, negation: negation)
        case (.constant(let constant), .field(let field)):
            guard valid else { return nil }
            return checkFieldConstant(c, field: field, constant: constant, constantOnLeft: true, negation: negation)
        default:
            return nil
        }
    }

    mutating func checkFieldConstant(
        _ c: ComparisonNode, field: FieldRef, constant: Constant, constantOnLeft: Bool, negation: SourceRange?
    ) -> [FilterTerm]? {
        let negated = negation != nil
        switch c.op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if c.modifier == .any {
                guard c.op == .equal else {
                    report(.anyModifierOperator, "ANY works only with =, IN, CONTAINS and BEGINSWITH in CloudKit", c.operatorRange)
                    return nil
                }
                switch constant {
                case .list:
                    guard constantOnLeft else {
                        report(.listValue,
                               "ANY \(PredicatePrinter.keyText(field.name)) = takes one value; to match any of several write ANY \(PredicatePrinter.keyText(field.name)) IN {...}",
                               constant.range)
                        return nil
                    }
                    guard case .list(let values, _) = constant else { return nil }
                    // ANY {'red', 'green'} = favoriteColor
                    return term(field, .equality, values, constant, opText: "ANY {...} =") { key, coerced in
                        .oneOf(key, coerced, negated: negated)
                    }
                default:
                    // ANY favoriteColors = 'red'
                    return term(field, .listMembership, constant, opText: "ANY ... =") { key, coerced in
                        .listContains(key, coerced[0], negated: negated)
                    }
                }
            }
            guard var op = ComparisonOperator(constantOnLeft ? (c.op.flipped ?? c.op) : c.op) else { return nil }
            if negated { op = op.negated }
            if case .list = constant {
                report(.listValue,
                       "This compares the field '\(field.name)' with a list: to match any of several values use \(PredicatePrinter.keyText(field.name)) IN {...}",
                       constant.range)
                return nil
            }
            let usage: FieldUsage = (op == .equal || op == .notEqual) ? .equality : .range
            return term(field, usage, constant, opText: c.op.rawValue) { key, coerced in
                .compare(key, op, coerced[0])
            }
        case .in:
            if !constantOnLeft {
                guard case .list(let values, _) = constant else {
                    if case .placeholder = constant { return fieldCheckOnly(field, c.modifier == .any ? .listMembership : .equality, opText: "IN") }
                    report(.listValue, "IN needs a list on its right: \(PredicatePrinter.keyText(field.name)) IN {a, b} or a list argument", constant.range)
                    return nil
                }
                if c.modifier == .any {
                    return term(field, .listMembership, values, constant, opText: "ANY ... IN") { key, coerced in
                        .listContainsAny(key, coerced, negated: negated)
                    }
                }
                return term(field, .equality, values, constant, opText: "IN") { key, coerced in
                    .oneOf(key, coerced, negated: negated)
                }
            }
            if case .list(let values, _) = constant {
                guard c.modifier == .any else {
                    report(.listValue,
                           "To match records whose list holds any of several values write ANY \(PredicatePrinter.keyText(field.name)) IN {...}",
                           constant.range)
                    return nil
                }
                return term(field, .listMembership, values, constant, opText: "ANY {...} IN") { key, coerced in
                    .listContainsAny(key, coerced, negated: negated)
                }
            }
            // 'red' IN favoriteColors
            return term(field, .listMembership, constant, opText: "IN") { key, coerced in
                .listContains(key, coerced[0], negated: negated)
            }
        case .contains:
            if !constantOnLeft {
                if case .list = constant {
                    report(.listValue,
                           "CONTAINS takes one value; to match any of several write ANY \(PredicatePrinter.keyText(field.name)) IN {...}",
                           constant.range)
                    return nil
                }
                return term(field, .listMembership, constant, opText: "CONTAINS") { key, coerced in
                    .listContains(key, coerced[0], negated: negated)
                }
            }
            guard case .list(let values, _) = constant, c.modifier == .direct else {
                if case .placeholder = constant { return fieldCheckOnly(field, .equality, opText: "CONTAINS") }
                report(.substringContains,
                       "CloudKit doesn't support substring tests: CONTAINS tests list membership, and self CONTAINS 'word' searches tokens",
                       c.operatorRange)
                return nil
            }
            // {'red', 'green'} CONTAINS favoriteColor
            return term(field, .equality, values, constant, opText: "{...} CONTAINS") { key, coerced in
                .oneOf(key, coerced, negated: negated)
            }
        case .beginsWith:
            guard !constantOnLeft else {
                report(.operandOrder, "BEGINSWITH needs the field on its left: \(PredicatePrinter.keyText(field.name)) BEGINSWITH \"prefix\"", c.operatorRange)
                return nil
            }
            if case .placeholder = constant { return fieldCheckOnly(field, .beginsWith(any: c.modifier == .any), opText: "BEGINSWITH") }
            guard case .value(.string(let prefix), _) = constant else {
                report(.typeMismatch, "BEGINSWITH needs a string to compare with", constant.range)
                return nil
            }
            return term(field, .beginsWith(any: c.modifier == .any), constant, opText: "BEGINSWITH") { key, _ in
                .beginsWith(key, prefix, negated: negated)
            }
        case .between:
            var valid = true
            if let negation {
                report(.notAroundBetween, "CloudKit doesn't support NOT around BETWEEN: use two comparisons, < low and > high, in separate queries", negation)
                valid = false
            }
            if c.modifier != .direct {
                report(.anyModifierOperator, "ANY works only with =, IN, CONTAINS and BEGINSWITH in CloudKit", c.modifierRange)
                valid = false
            }
            guard !constantOnLeft else {
                report(.operandOrder, "BETWEEN needs the field on its left: \(PredicatePrinter.keyText(field.name)) BETWEEN {low, high}", c.operatorRange)
                return nil
            }
            if case .placeholder = constant { return valid ? fieldCheckOnly(field, .range, opText: "BETWEEN") : nil }
            guard case .list(let values, _) = constant, values.count == 2 else {
                report(.betweenShape, "BETWEEN needs exactly two values: \(PredicatePrinter.keyText(field.name)) BETWEEN {low, high}", constant.range)
                return nil
            }
            guard valid else { return nil }
            return term(field, .range, values, constant, opText: "BETWEEN") { key, coerced in
                .between(key, coerced[0], coerced[1])
            }
        default:
            return nil
        }
    }

    /// Builds a term for one constant (or a placeholder).
    mutating func term(
        _ field: FieldRef, _ usage: FieldUsage, _ constant: Constant, opText: String,
        make: (FieldKey, [FieldValue]) -> FilterTerm
    ) -> [FilterTerm]? {
        switch constant {
        case .value(let value, _):
            return term(field, usage, [value], constant, opText: opText, make: make)
        case .placeholder:
            return fieldCheckOnly(field, usage, opText: opText)
        case .list(let values, _):
            return term(field, usage, values, constant, opText: opText, make: make)
        }
    }

    /// Builds a term for a list of constant values, coerced to the field's type.
    mutating func term(
        _ field: FieldRef, _ usage: FieldUsage, _ values: [FieldValue], _ constant: Constant, opText: String,
        make: (FieldKey, [FieldValue]) -> FilterTerm
    ) -> [FilterTerm]? {
        guard let resolved = resolve(field, usage: usage, sample: values.first, opText: opText) else { return nil }
        var coerced: [FieldValue] = []
        for value in values {
            guard let converted = coerce(value, to: resolved, range: constant.range) else { return nil }
            coerced.append(converted)
        }
        return [make(resolved, coerced)]
    }

    /// Checks the field when the value is still unbound; produces no term.
    mutating func fieldCheckOnly(_ field: FieldRef, _ usage: FieldUsage, opText: String) -> [FilterTerm]? {
        _ = resolve(field, usage: usage, sample: nil, opText: opText)
        return nil
    }
}
