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

    /// ``stopWords`` as keys (``key(_:)``) in a table of 128 slots, each key at the first free
    /// slot from ``slot(_:)`` on (0: free): a piece of lower-case ASCII is looked up without
    /// making a string of it, in a comparison or two (a search along the 33 keys cost a tenth of
    /// tokenizing a record). Every stop word is shorter than eight bytes; `TextTokenizerTests`
    /// checks each is dropped.
    private static let stopWordSlots: [UInt64] = {
        var slots = [UInt64](repeating: 0, count: 128)
        for word in stopWords {
            guard let key = Array(word.utf8).withUnsafeBufferPointer({ key($0) }) else { continue }
            var place = slot(key)
            while slots[place] != 0 { place = (place + 1) & 127 }
            slots[place] = key
        }
        return slots
    }()

    /// Where the search for a stop word's key starts.
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57) }

    /// A piece of up to seven bytes as one number: its bytes, and its length in the top byte;
    /// nil for a longer piece (longer than any stop word).
    private static func key(_ piece: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard piece.count < 8 else { return nil }
        var key = UInt64(piece.count) << 56
        for (index, byte) in piece.enumerated() { key |= UInt64(byte) << (8 * index) }
        return key
    }

    /// `slots`: ``stopWordSlots``, fetched once by the caller rather than once per piece.
    private static func isStopWord(_ piece: UnsafeBufferPointer<UInt8>, in slots: [UInt64]) -> Bool {
        guard let key = key(piece) else { return false }
        var place = slot(key)
        while slots[place] != 0 {
            if slots[place] == key { return true }
            place = (place + 1) & 127
        }
        return false
    }

    /// Folds case and strips diacritics (`Café` -> `cafe`).
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The tokens of every string of a field value (a string, or each element of a string
    /// list, in order); none for other types.
    public static func tokens(of value: FieldValue) -> [String] {
        var all: [String] = []
        forEachToken(of: value) { all.append(String(decoding: $0, as: UTF8.self)) }
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
        forEachToken(of: value) { token in
            bytes.append(separator)
            bytes.append(contentsOf: token)
        }
    }

    /// Hands each token of every string of `value` (a string, or each element of a string
    /// list, in order) to `body`; none for other types.
    public static func forEachToken(of value: FieldValue, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        value.forEachElement { element in
            if case .string(let text) = element { forEachToken(text, body) }
        }
    }

    /// What ``appendTokens(of:to:)`` puts before each token.
    @inlinable public static var separator: UInt8 { UInt8(ascii: " ") }

    /// Hands each folded token of `text` to `body` as UTF-8, in order, stop words removed.
    ///
    /// Saving and importing tokenize every SEARCHABLE string, so this avoids Foundation's
    /// folding where it can: the text is cut at ASCII separators, and a piece of ASCII letters
    /// and digits is one token, lower-cased byte by byte. Only pieces holding other characters
    /// go through ``unicodeTokens(_:)``. Folding works within a character, and no ASCII
    /// separator folds into a letter, so the pieces give exactly the whole text's tokens.
    /// An ASCII piece already in lower case is handed over where it lies in the text's bytes.
    public static func forEachToken(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        let stopWords = stopWordSlots
        var lowered: [UInt8] = []
        text.withUTF8 { utf8 in
            var start = 0
            var isASCII = true
            var hasUpper = false
            func flush(_ end: Int) {
                defer { (start, isASCII, hasUpper) = (end + 1, true, false) }
                guard end > start else { return }
                let piece = UnsafeBufferPointer(rebasing: utf8[start..<end])
                guard isASCII else {
                    for var token in unicodeTokens(String(decoding: piece, as: UTF8.self)) { token.withUTF8(body) }
                    return
                }
                guard hasUpper else {
                    if !isStopWord(piece, in: stopWords) { body(piece) }
                    return
                }
                lowered.removeAll(keepingCapacity: true)
                for byte in piece { lowered.append(byte | (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? 0x20 : 0)) }
                lowered.withUnsafeBufferPointer { if !isStopWord($0, in: stopWords) { body($0) } }
            }
            for index in utf8.indices {
                switch utf8[index] {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): hasUpper = true
                case 0x80...: isASCII = false
                default: flush(index)
                }
            }
            flush(utf8.count)
        }
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
