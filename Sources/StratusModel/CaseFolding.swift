/// The one definition of "case-insensitive" for string equality and list membership, shared by
/// the engine's index and the in-memory evaluator so both agree.
///
/// CloudKit compares strings case-insensitively for `==` and `IN`; diacritics still count
/// (`café` is not `cafe`), only letter case is folded.
public enum CaseFolding {
    public static func key(_ text: String) -> String {
        // Most stored text is ASCII with no capitals: then the key is the text itself, and no
        // new string is made (every indexed string value gets a key when it is saved).
        if text.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return text }
        return text.lowercased()
    }
}
