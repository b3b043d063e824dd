/// What a `records/modify` request did, for the request log: `saved a, b · deleted c · 1 failed`.
/// Counted as the endpoint answers each operation, never read back from the JSON it wrote.
struct ModifySummary: Sendable, Equatable {
    /// What one operation came to.
    enum Outcome: Sendable, Equatable {
        case saved, deleted, failed
    }

    var saved: [String] = []
    var deleted: [String] = []
    var failed = 0

    mutating func add(_ outcome: Outcome, recordName: String) {
        switch outcome {
        case .saved: saved.append(recordName)
        case .deleted: deleted.append(recordName)
        case .failed: failed += 1
        }
    }

    /// The log's line; nil when the request had no operations.
    var text: String? {
        func list(_ names: [String]) -> String { names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "") }
        let parts = (saved.isEmpty ? [] : ["saved " + list(saved)]) + (deleted.isEmpty ? [] : ["deleted " + list(deleted)])
            + (failed == 0 ? [] : ["\(failed) failed"])
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
