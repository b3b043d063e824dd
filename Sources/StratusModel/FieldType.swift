/// The type of a record field, as CloudKit's schema names it.
///
/// A field is either one value of a ``BaseType`` or a list of them (`LIST<STRING>`); CloudKit
/// has no nested lists, so a flag is enough to say which.
public struct FieldType: Hashable, Sendable, CustomStringConvertible {
    /// The scalar types CloudKit stores.
    public enum BaseType: String, CaseIterable, Sendable {
        case string = "STRING"
        case int64 = "INT64"
        case double = "DOUBLE"
        case timestamp = "TIMESTAMP"
        case bytes = "BYTES"
        case asset = "ASSET"
        case reference = "REFERENCE"
        case location = "LOCATION"

        /// Whether a value of this type can be compared and sorted (QUERYABLE / SORTABLE apply).
        public var isIndexable: Bool {
            switch self {
            case .bytes, .asset: return false
            default: return true
            }
        }

        /// Whether values of this type are ordered (ranges and sort make sense).
        public var isOrdered: Bool {
            switch self {
            case .string, .int64, .double, .timestamp: return true
            default: return false
            }
        }
    }

    public var base: BaseType
    public var isList: Bool

    public init(_ base: BaseType, isList: Bool = false) {
        self.base = base
        self.isList = isList
    }

    public static let string = FieldType(.string)
    public static let int64 = FieldType(.int64)
    public static let double = FieldType(.double)
    public static let timestamp = FieldType(.timestamp)
    public static let bytes = FieldType(.bytes)
    public static let asset = FieldType(.asset)
    public static let reference = FieldType(.reference)
    public static let location = FieldType(.location)
    public static func list(_ base: BaseType) -> FieldType { FieldType(base, isList: true) }

    /// The schema-language spelling: `STRING`, `LIST<INT64>`.
    public var description: String { isList ? "LIST<\(base.rawValue)>" : base.rawValue }

    /// The Web Services type tag: `STRING`, `INT64_LIST`.
    public var webServicesTag: String { isList ? "\(base.rawValue)_LIST" : base.rawValue }

    /// Parses `STRING`, `LIST<STRING>`, `STRING_LIST` (case-insensitive).
    public init?(parsing text: String) {
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        if upper.hasPrefix("LIST<"), upper.hasSuffix(">") {
            guard let base = BaseType(rawValue: String(upper.dropFirst(5).dropLast())) else { return nil }
            self.init(base, isList: true)
        } else if upper.hasSuffix("_LIST") {
            guard let base = BaseType(rawValue: String(upper.dropLast(5))) else { return nil }
            self.init(base, isList: true)
        } else if upper == "TIMESTAMP" || upper == "DATE" {
            self.init(.timestamp)
        } else if let base = BaseType(rawValue: upper) {
            self.init(base)
        } else {
            return nil
        }
    }

    /// Indexes a development schema gives a new field of this type, as CloudKit's development
    /// environment does: every indexable field is queryable and sortable, strings searchable.
    public var defaultIndexes: FieldIndexes {
        guard base.isIndexable else { return [] }
        var indexes: FieldIndexes = [.queryable]
        if base.isOrdered || base == .reference { indexes.insert(.sortable) }
        if base == .string { indexes.insert(.searchable) }
        return indexes
    }
}

import Foundation
