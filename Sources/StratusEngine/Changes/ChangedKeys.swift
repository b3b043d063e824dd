import StratusModel
import StratusCloud

/// Which fields a change set or removed, as the `record.changed_keys` column keeps them: the
/// names one per line; NULL when not known (a record restored by an import).
enum ChangedKeys {
    /// The fields whose values differ between two states of a record (a new record: all).
    static func between(_ before: [String: FieldValue]?, _ after: [String: FieldValue]) -> [String] {
        guard let before else { return after.keys.sorted() }
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    static func encode(_ keys: [String]) -> String { keys.joined(separator: "\n") }

    static func decode(_ text: String) -> [String] { text.isEmpty ? [] : text.split(separator: "\n").map(String.init) }
}
