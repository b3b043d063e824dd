/// The one definition of "case-insensitive" for string equality and list membership, shared by
/// the engine's index and the in-memory evaluator so both agree.
///
/// CloudKit compares strings case-insensitively for `==` and `IN`; diacritics still count
/// (`café` is not `cafe`), only letter case is folded.
public enum CaseFolding {
    public static func key(_ text: String) -> String { text.lowercased() }
}
