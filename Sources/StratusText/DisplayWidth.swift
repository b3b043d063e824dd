/// Terminal column widths of text, and column-based truncation and padding.
///
/// Terminals lay text out in cells, not characters: CJK and emoji take two, combining marks
/// take none. Everything that aligns text (tables, borders, truncation) must measure with
/// these functions, never with `count`.
public enum DisplayWidth {
    /// Where padding goes when text is narrower than the target width.
    public enum Alignment: Sendable {
        case left, right, center
    }

    /// The ellipsis used by ``truncate(_:to:ellipsis:)``.
    public static let ellipsis = "…"

    /// Columns taken by one scalar on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if WideRanges.contains(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns taken by one grapheme cluster. A cluster is drawn in one cell group, so its
    /// width is its base's width, widened to 2 by an emoji presentation selector (U+FE0F).
    /// ZWJ sequences, flags and skin-tone sequences are therefore 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let first = scalars.first, scalars.count == 1 {
            return of(first)
        }
        var base: Unicode.Scalar?
        var width = 0
        var hasEmojiSelector = false
        for scalar in scalars {
            if scalar.value == 0xFE0F { hasEmojiSelector = true }
            if base == nil {
                let scalarWidth = of(scalar)
                if scalarWidth > 0 {
                    base = scalar
                    width = scalarWidth
                }
            }
        }
        if let base, hasEmojiSelector, base.properties.isEmoji {
            return 2
        }
        return width
    }

    /// Columns taken by a whole string.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// Cuts `text` to at most `width` columns, ending with `ellipsis` when anything was cut.
    /// A wide character that would cross the limit is dropped whole, so the result can be one
    /// column narrower than `width`; use ``fit(_:to:alignment:ellipsis:)`` for an exact width.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = DisplayWidth.ellipsis) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        guard ellipsisWidth <= width else { return prefix(ellipsis, width: width) }
        return prefix(text, width: width - ellipsisWidth) + ellipsis
    }

    /// The longest prefix of `text` that fits in `width` columns, without splitting a character.
    public static func prefix(_ text: String, width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = of(character)
            if used + characterWidth > width { break }
            result.append(character)
            used += characterWidth
        }
        return result
    }

    /// Pads `text` with spaces to `width` columns; text already that wide is returned as is.
    public static func pad(_ text: String, to width: Int, alignment: Alignment = .left) -> String {
        let missing = width - of(text)
        guard missing > 0 else { return text }
        switch alignment {
        case .left:
            return text + String(repeating: " ", count: missing)
        case .right:
            return String(repeating: " ", count: missing) + text
        case .center:
            let left = missing / 2
            return String(repeating: " ", count: left) + text + String(repeating: " ", count: missing - left)
        }
    }

    /// Truncates then pads: the result is exactly `width` columns wide (for table cells).
    public static func fit(
        _ text: String, to width: Int, alignment: Alignment = .left, ellipsis: String = DisplayWidth.ellipsis
    ) -> String {
        pad(truncate(text, to: width, ellipsis: ellipsis), to: width, alignment: alignment)
    }

    /// Controls, combining and enclosing marks, format characters (ZWJ, ZWSP), variation
    /// selectors and Hangul medial vowels / final consonants take no column of their own.
    public static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x00AD { return false }  // soft hyphen: terminals print it
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }
}
