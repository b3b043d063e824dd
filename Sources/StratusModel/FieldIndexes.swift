/// The indexes a schema field carries (`QUERYABLE`, `SORTABLE`, `SEARCHABLE`).
public struct FieldIndexes: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Equality and membership (`=`, `IN`, `CONTAINS` on lists).
    public static let queryable = FieldIndexes(rawValue: 1 << 0)
    /// Ranges and sort (`<`, `BETWEEN`, `BEGINSWITH`, sort descriptors).
    public static let sortable = FieldIndexes(rawValue: 1 << 1)
    /// Full-text tokens (`self CONTAINS 'token'`).
    public static let searchable = FieldIndexes(rawValue: 1 << 2)

    /// The schema-language words, in the order cktool exports them.
    public var description: String {
        var words: [String] = []
        if contains(.queryable) { words.append("QUERYABLE") }
        if contains(.searchable) { words.append("SEARCHABLE") }
        if contains(.sortable) { words.append("SORTABLE") }
        return words.joined(separator: " ")
    }
}
