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

    /// ``stopWords`` as bytes, by length: a piece of lower-case ASCII is looked up without
    /// making a string of it (most words are not stop words, and longer than any).
    private static let stopWordBytes: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 1 + stopWords.map(\.utf8.count).max()!)
        for word in stopWords { table[word.utf8.count].append(Array(word.utf8)) }
        return table
    }()

    private static func isStopWord(_ piece: [UInt8]) -> Bool {
        piece.count < stopWordBytes.count && stopWordBytes[piece.count].contains(piece)
    }

    /// Folds case and strips diacritics (`Café` -> `cafe`).
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The tokens of every string of a field value (a string, or each element of a string
    /// list, in order); none for other types.
    public static func tokens(of value: FieldValue) -> [String] {
        var all: [String] = []
        value.forEachElement { element in
            if case .string(let text) = element { all += tokens(text) }
        }
        return all
    }

    /// The folded tokens of `text`, in order, stop words removed, duplicates kept.
    public static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        forEachToken(text) { result.append(String(decoding: $0, as: UTF8.self)) }
        return result
    }

    /// Appends the tokens of every string of `value`, each after a space (`separator`), to
    /// `bytes`: what a full-text row holds, made without a string per token.
    public static func appendTokens(of value: FieldValue, to bytes: inout [UInt8]) {
        value.forEachElement { element in
            guard case .string(let text) = element else { return }
            forEachToken(text) { token in
                bytes.append(separator)
                bytes.append(contentsOf: token)
            }
        }
    }

    /// What ``appendTokens(of:to:)`` puts before each token.
    public static let separator = UInt8(ascii: " ")

    /// Hands each folded token of `text` to `body` as UTF-8, in order, stop words removed.
    ///
    /// Saving and importing tokenize every SEARCHABLE string, so this avoids Foundation's
    /// folding where it can: the text is cut at ASCII separators, and a piece of ASCII letters
    /// and digits is one token, lower-cased byte by byte. Only pieces holding other characters
    /// go through ``unicodeTokens(_:)``. Folding works within a character, and no ASCII
    /// separator folds into a letter, so the pieces give exactly the whole text's tokens.
    public static func forEachToken(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var piece: [UInt8] = []
        var pieceIsASCII = true
        func flush() {
            guard !piece.isEmpty else { return }
            if pieceIsASCII {
                if !isStopWord(piece) { piece.withUnsafeBufferPointer(body) }
            } else {
                for var token in unicodeTokens(String(decoding: piece, as: UTF8.self)) { token.withUTF8(body) }
            }
            piece.removeAll(keepingCapacity: true)
            pieceIsASCII = true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                piece.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                piece.append(byte | 0x20)
            case 0x80...:
                piece.append(byte)
                pieceIsASCII = false
            default:
                flush()
            }
        }
        flush()
    }

    /// Tokens of any text, through Foundation's folding and the Unicode properties of each scalar.
    static func unicodeTokens(_ text: String) -> [String] {
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
