/// Scalar ranges that Unicode's East Asian Width property marks Wide (W) or Fullwidth (F).
///
/// Swift does not expose East Asian Width, so the ranges are embedded here (Unicode 15,
/// merged where neighbours touch). Emoji with default emoji presentation are detected
/// separately through `Unicode.Scalar.Properties.isEmojiPresentation`.
enum WideRanges {
    /// Sorted, non-overlapping closed ranges, searched with a binary search.
    static let ranges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x231A...0x231B,   // watch, hourglass
        0x2329...0x232A,   // angle brackets
        0x23E9...0x23EC,
        0x23F0...0x23F0,
        0x23F3...0x23F3,
        0x25FD...0x25FE,
        0x2614...0x2615,
        0x2648...0x2653,
        0x267F...0x267F,
        0x2693...0x2693,
        0x26A1...0x26A1,
        0x26AA...0x26AB,
        0x26BD...0x26BE,
        0x26C4...0x26C5,
        0x26CE...0x26CE,
        0x26D4...0x26D4,
        0x26EA...0x26EA,
        0x26F2...0x26F3,
        0x26F5...0x26F5,
        0x26FA...0x26FA,
        0x26FD...0x26FD,
        0x2705...0x2705,
        0x270A...0x270B,
        0x2728...0x2728,
        0x274C...0x274C,
        0x274E...0x274E,
        0x2753...0x2755,
        0x2757...0x2757,
        0x2795...0x2797,
        0x27B0...0x27B0,
        0x27BF...0x27BF,
        0x2B1B...0x2B1C,
        0x2B50...0x2B50,
        0x2B55...0x2B55,
        0x2E80...0x2E99,   // CJK radicals supplement
        0x2E9B...0x2EF3,
        0x2F00...0x2FD5,   // Kangxi radicals
        0x2FF0...0x303E,   // ideographic description, CJK symbols and punctuation, ideographic space
        0x3041...0x3096,   // Hiragana
        0x3099...0x30FF,   // (3099, 309A are combining and caught earlier) Katakana
        0x3105...0x312F,   // Bopomofo
        0x3131...0x318E,   // Hangul compatibility Jamo
        0x3190...0x31E3,   // Kanbun, Bopomofo extended, CJK strokes
        0x31EF...0x321E,   // Katakana phonetic extensions, enclosed CJK
        0x3220...0x3247,
        0x3250...0x4DBF,   // enclosed CJK, CJK compatibility, CJK extension A
        0x4E00...0xA48C,   // CJK unified ideographs, Yi syllables
        0xA490...0xA4C6,   // Yi radicals
        0xA960...0xA97C,   // Hangul Jamo extended A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE52,   // CJK compatibility forms, small forms
        0xFE54...0xFE66,
        0xFE68...0xFE6B,
        0xFF01...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,
        0x16FE0...0x16FE4,
        0x16FF0...0x16FF1,
        0x17000...0x187F7, // Tangut
        0x18800...0x18CD5,
        0x18D00...0x18D08,
        0x1AFF0...0x1AFF3,
        0x1AFF5...0x1AFFB,
        0x1AFFD...0x1AFFE,
        0x1B000...0x1B122, // Kana supplement and extended A
        0x1B132...0x1B132,
        0x1B150...0x1B152,
        0x1B155...0x1B155,
        0x1B164...0x1B167,
        0x1B170...0x1B2FB, // Nushu
        0x1F004...0x1F004,
        0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E,
        0x1F191...0x1F19A,
        0x1F200...0x1F202,
        0x1F210...0x1F23B,
        0x1F240...0x1F248,
        0x1F250...0x1F251,
        0x1F260...0x1F265,
        0x1F300...0x1F320,
        0x1F32D...0x1F335,
        0x1F337...0x1F37C,
        0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F43E,
        0x1F440...0x1F440,
        0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D,
        0x1F54B...0x1F54E,
        0x1F550...0x1F567,
        0x1F57A...0x1F57A,
        0x1F595...0x1F596,
        0x1F5A4...0x1F5A4,
        0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC,
        0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB,
        0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A,
        0x1F93C...0x1F945,
        0x1F947...0x1F9FF,
        0x1FA70...0x1FA7C,
        0x1FA80...0x1FA88,
        0x1FA90...0x1FABD,
        0x1FABF...0x1FAC5,
        0x1FACE...0x1FADB,
        0x1FAE0...0x1FAE8,
        0x1FAF0...0x1FAF8,
        0x20000...0x2FFFD, // CJK extensions B..F, compatibility supplement
        0x30000...0x3FFFD, // CJK extensions G, H
    ]

    /// True when `value` falls in one of the wide ranges.
    static func contains(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
