import Foundation
import StratusModel

/// A checked predicate in the one shape both the SQL planner and the in-memory evaluator
/// consume: an AND of typed terms, each on one field, values already coerced.
///
/// An empty filter matches every record (TRUEPREDICATE).
public struct QueryFilter: Hashable, Sendable {
    public var terms: [FilterTerm]

    public init(terms: [FilterTerm] = []) {
        self.terms = terms
    }

    /// TRUEPREDICATE.
    public static let all = QueryFilter()
}

/// One condition of a `QueryFilter`. See docs/semantics.md for the exact meaning of each
/// term for each value type.
public enum FilterTerm: Hashable, Sendable {
    /// `field op value` on a scalar field. The value is of the field's type family (INT64 and
    /// DOUBLE fields take either number; REFERENCE fields a reference).
    case compare(FieldKey, ComparisonOperator, FieldValue)
    /// `field IN {...}` / `ANY {...} = field`; `negated` for `NOT (field IN {...})`.
    case oneOf(FieldKey, [FieldValue], negated: Bool)
    /// `ANY list = v`, `list CONTAINS v`, `v IN list`; `negated` for `NOT (...)`.
    case listContains(FieldKey, FieldValue, negated: Bool)
    /// `ANY list IN {...}`: the list holds at least one of the values.
    case listContainsAny(FieldKey, [FieldValue], negated: Bool)
    /// `field BEGINSWITH s` on a string, or `ANY list BEGINSWITH s` on a string list
    /// (case-sensitive).
    case beginsWith(FieldKey, String, negated: Bool)
    /// `field BETWEEN {low, high}`, both ends included.
    case between(FieldKey, FieldValue, FieldValue)
    /// A full-text search: `tokens` are already folded, stop words dropped, duplicates
    /// removed. `matchAll` false: any token suffices. `fields`: the SEARCHABLE string (and
    /// string list) fields to look in; empty when there was no schema, meaning every string
    /// field of the record.
    case tokens([String], matchAll: Bool, fields: [String])
    /// `distanceToLocation:fromLocation:(field, center) < km` (`<=` when `inclusive`).
    case withinDistance(FieldKey, center: Location, kilometres: Double, inclusive: Bool)
    /// FALSEPREDICATE: matches nothing.
    case never
}

/// A field a term tests: a custom field with the type the query expects, or a system field.
public enum FieldKey: Hashable, Sendable, CustomStringConvertible {
    case custom(String, FieldType)
    case system(SystemField)

    /// The custom field's name, or the system field's server name (`___createTime`).
    public var name: String {
        switch self {
        case .custom(let name, _): return name
        case .system(let field): return field.rawValue
        }
    }

    public var type: FieldType {
        switch self {
        case .custom(_, let type): return type
        case .system(let field): return field.type
        }
    }

    public var description: String { name }
}

/// The six basic comparisons.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// The comparison `NOT` turns this one into (`NOT a < 5` is `a >= 5`: a record lacking the
    /// field matches neither, so the rewrite is exact under our missing-field rule).
    public var negated: ComparisonOperator {
        switch self {
        case .equal: return .notEqual
        case .notEqual: return .equal
        case .less: return .greaterOrEqual
        case .lessOrEqual: return .greater
        case .greater: return .lessOrEqual
        case .greaterOrEqual: return .less
        }
    }

    init?(_ op: PredicateOperator) {
        switch op {
        case .equal: self = .equal
        case .notEqual: self = .notEqual
        case .less: self = .less
        case .lessOrEqual: self = .lessOrEqual
        case .greater: self = .greater
        case .greaterOrEqual: self = .greaterOrEqual
        default: return nil
        }
    }
}

/// A sort descriptor as a query asks for it.
public struct QuerySort: Hashable, Sendable {
    /// A predicate key: a custom field name or a system key (`creationDate`, `___createTime`).
    public var key: String
    public var ascending: Bool
    /// When set, sort by distance from this point (`CKLocationSortDescriptor`); the field
    /// must be a location.
    public var distanceFrom: Location?

    public init(_ key: String, ascending: Bool = true, distanceFrom: Location? = nil) {
        self.key = key
        self.ascending = ascending
        self.distanceFrom = distanceFrom
    }

    /// Parses the command line's `[-]FIELD` (a leading `-` sorts descending).
    public init(parsing text: String) {
        if text.hasPrefix("-") {
            self.init(String(text.dropFirst()), ascending: false)
        } else {
            self.init(text.hasPrefix("+") ? String(text.dropFirst()) : text)
        }
    }
}

/// A checked sort descriptor.
public struct SortTerm: Hashable, Sendable {
    public var key: FieldKey
    public var ascending: Bool
    public var distanceFrom: Location?

    public init(key: FieldKey, ascending: Bool, distanceFrom: Location? = nil) {
        self.key = key
        self.ascending = ascending
        self.distanceFrom = distanceFrom
    }
}

/// Everything the engine needs to run a checked query.
public struct CompiledQuery: Hashable, Sendable {
    public var recordType: String
    public var filter: QueryFilter
    public var sorts: [SortTerm]
    /// The format string in canonical form, specifiers left in place.
    public var canonical: String
    /// The canonical form with the arguments substituted.
    public var boundCanonical: String
}
