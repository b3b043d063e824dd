import Foundation

/// Splits text into the tokens CloudKit's full-text search compares: words of letters and
/// digits, folded for case and diacritics, without the stop words CloudKit ignores.
///
/// The engine indexes with it and the in-memory evaluator matches with it, so both always agree
/// on what a token is.
public enum TextTokenizer {
    /// The words CloudKit ignores in token strings (CKQuery, "Indexes and Full-Text Search").
    public static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
        "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they",
        "this", "to", "was", "will", "with",
    ]

    /// Folds case and strips diacritics (`Café` -> `cafe`).
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded tokens of `text`, in order, stop words removed, duplicates kept.
    public static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            guard !current.isEmpty else { return }
            let word = String(current)
            current = String.UnicodeScalarView()
            if !stopWords.contains(word) { result.append(word) }
        }
        for scalar in fold(text).unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else {
                flush()
            }
        }
        flush()
        return result
    }
}
