/// The one definition of "case-insensitive" for string equality and list membership, shared by
/// the engine's index and the in-memory evaluator so both agree.
///
/// CloudKit compares strings case-insensitively for `==` and `IN`; diacritics still count
/// (`café` is not `cafe`), only letter case is folded.
public enum CaseFolding {
    public static func key(_ text: String) -> String {
        // Most stored text is ASCII with no capitals: then the key is the text itself, and no
        // new string is made (every indexed string value gets a key when it is saved).
        if isOwnKey(utf8: text.utf8) { return text }
        return text.lowercased()
    }

    /// Whether UTF-8 text is its own key (ASCII without capitals), so a writer holding bytes
    /// need not make a string to learn that the key is the text.
    @inlinable
    public static func isOwnKey<Bytes: Sequence<UInt8>>(utf8 bytes: Bytes) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}
