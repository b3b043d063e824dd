/// Character tests shared by the lexer and the printer, so what the printer writes as a bare
/// key is exactly what the lexer reads back as one.
enum CharacterClass {
    static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }

    static func isHexDigit(_ c: Unicode.Scalar) -> Bool { hexValue(c) != nil }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x41...0x46: return c.value - 0x41 + 10
        case 0x61...0x66: return c.value - 0x61 + 10
        default: return nil
        }
    }

    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || (c.isASCII ? (c.value | 0x20) >= 0x61 && (c.value | 0x20) <= 0x7A : c.properties.isAlphabetic)
    }

    static func isIdentifierContinue(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isIdentifierStart(c) || isDigit(c) }
        switch c.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark: return true
        default: return c.properties.isAlphabetic
        }
    }

    /// Whether `text` lexes as one plain identifier.
    static func isIdentifier(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isIdentifierStart(first) else { return false }
        while let c = scalars.next() {
            if !isIdentifierContinue(c) { return false }
        }
        return true
    }

    /// A character for an error message: printable ones quoted, others as U+XXXX.
    static func describe(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch c.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
             .spaceSeparator, .nonspacingMark, .enclosingMark:
            return code
        default:
            return "'\(c)' (\(code))"
        }
    }
}
