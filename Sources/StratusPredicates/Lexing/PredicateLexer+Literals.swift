/// String, number and format-specifier literals.
extension PredicateLexer {
    mutating func string(quote: Unicode.Scalar) throws(PredicateSyntaxError) -> Token {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw PredicateSyntaxError("unterminated string: expected a closing \(quote)", at: range(from: start))
            }
            position += 1
            if c == quote { break }
            if c != "\\" {
                text.append(c)
                continue
            }
            try text.append(escape(stringStart: start))
        }
        return Token(.string(String(text)), range(from: start))
    }

    /// Reads the escape after a backslash.
    mutating func escape(stringStart: Int) throws(PredicateSyntaxError) -> Unicode.Scalar {
        let escapeStart = position - 1
        guard let c = peek() else {
            throw PredicateSyntaxError("unterminated string: expected a closing quote", at: range(from: stringStart))
        }
        position += 1
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "x", "X":
            return try hexEscape(digits: 2, escapeStart: escapeStart)
        case "u", "U":
            let value = try hexValue(digits: 4, escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(value) {
                // A UTF-16 surrogate pair written as two escapes.
                if peek() == "\\", let u = peek(1), u == "u" || u == "U" {
                    position += 2
                    let low = try hexValue(digits: 4, escapeStart: escapeStart)
                    if (0xDC00...0xDFFF).contains(low),
                       let scalar = Unicode.Scalar(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)) {
                        return scalar
                    }
                }
                throw PredicateSyntaxError("\\u escape is a lone UTF-16 surrogate", at: range(from: escapeStart))
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw PredicateSyntaxError("\\u escape is a lone UTF-16 surrogate", at: range(from: escapeStart))
            }
            return scalar
        case "0"..."7":
            var value = c.value - 0x30
            var count = 1
            while count < 3, let d = peek(), ("0"..."7").contains(d) {
                value = value * 8 + d.value - 0x30
                position += 1
                count += 1
            }
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        default:
            return c
        }
    }

    mutating func hexValue(digits: Int, escapeStart: Int) throws(PredicateSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let c = peek(), let digit = CharacterClass.hexValue(c) else {
                throw PredicateSyntaxError("expected \(digits) hex digits in escape", at: range(from: escapeStart))
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    mutating func hexEscape(digits: Int, escapeStart: Int) throws(PredicateSyntaxError) -> Unicode.Scalar {
        let value = try hexValue(digits: digits, escapeStart: escapeStart)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    // MARK: - Numbers

    mutating func number() throws(PredicateSyntaxError) -> Token {
        let start = position
        if peek() == "0", let prefix = peek(1), let radix = Self.radix(prefix) {
            position += 2
            var value: UInt64 = 0
            var digits = 0
            while let c = peek(), let digit = CharacterClass.hexValue(c), digit < radix {
                let (times, overflow1) = value.multipliedReportingOverflow(by: UInt64(radix))
                let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
                if overflow1 || overflow2 {
                    while let c = peek(), CharacterClass.isIdentifierContinue(c) { position += 1 }
                    throw PredicateSyntaxError("number is too large for 64 bits", at: range(from: start))
                }
                value = sum
                digits += 1
                position += 1
            }
            guard digits > 0 else {
                throw PredicateSyntaxError("expected digits after '0\(prefix)'", at: range(from: start))
            }
            try rejectTrailingLetters(start: start)
            return Token(.integer(value), range(from: start))
        }

        var text = ""
        var isDouble = false
        func digits() {
            while let c = peek(), CharacterClass.isDigit(c) {
                text.unicodeScalars.append(c)
                position += 1
            }
        }
        digits()
        if peek() == "." {
            let after = peek(1)
            let startsExponent = (after == "e" || after == "E") && exponentFollows(at: position + 2)
            if after.map(CharacterClass.isDigit) == true || startsExponent
                || after.map(CharacterClass.isIdentifierStart) != true {
                isDouble = true
                text += text.isEmpty ? "0." : "."
                position += 1
                digits()
                if text.hasSuffix(".") { text += "0" }
            }
        }
        if let e = peek(), e == "e" || e == "E" {
            guard exponentFollows(at: position + 1) else {
                throw PredicateSyntaxError("expected exponent digits after '\(e)'", at: .between(start, position + 1))
            }
            isDouble = true
            text += "e"
            position += 1
            if let sign = peek(), sign == "+" || sign == "-" {
                text.unicodeScalars.append(sign)
                position += 1
            }
            digits()
        }
        try rejectTrailingLetters(start: start)
        if !isDouble, let value = UInt64(text) {
            return Token(.integer(value), range(from: start))
        }
        guard let value = Double(text) else {
            throw PredicateSyntaxError("invalid number", at: range(from: start))
        }
        return Token(.double(value), range(from: start))
    }

    static func radix(_ prefix: Unicode.Scalar) -> UInt32? {
        switch prefix {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    func exponentFollows(at index: Int) -> Bool {
        var i = index
        if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" { i += 1 }
        return i < scalars.count && CharacterClass.isDigit(scalars[i])
    }

    mutating func rejectTrailingLetters(start: Int) throws(PredicateSyntaxError) {
        guard let c = peek(), CharacterClass.isIdentifierContinue(c) else { return }
        while let c = peek(), CharacterClass.isIdentifierContinue(c) { position += 1 }
        throw PredicateSyntaxError("invalid number: unexpected \(CharacterClass.describe(c)) after the digits", at: range(from: start))
    }

    // MARK: - Format specifiers

    static let lengthModifiers: [String] = ["hh", "ll", "h", "l", "q", "L", "z", "j", "t"]
    static let conversions: Set<Unicode.Scalar> = [
        "d", "i", "o", "u", "x", "X", "D", "O", "U", "c", "C", "f", "F", "e", "E", "g", "G", "a", "A", "s", "S",
    ]

    /// `%@`, `%K`, `%%` and printf conversions such as `%d`, `%ld`, `%lld`, `%.2f`.
    mutating func formatSpecifier() throws(PredicateSyntaxError) -> Token {
        let start = position
        position += 1
        guard let first = peek() else {
            throw PredicateSyntaxError("expected a format specifier after '%', such as %@ or %K", at: range(from: start))
        }
        if first == "@" || first == "K" || first == "%" {
            position += 1
            return Token(.formatSpecifier(String(first)), range(from: start))
        }
        if first == "k" {
            position += 1
            throw PredicateSyntaxError("unknown format specifier '%k' (did you mean %K?)", at: range(from: start))
        }
        var text = ""
        while let c = peek(), "-+ #0".unicodeScalars.contains(c) {
            text.unicodeScalars.append(c)
            position += 1
        }
        while let c = peek(), CharacterClass.isDigit(c) || c == "." {
            text.unicodeScalars.append(c)
            position += 1
        }
        for modifier in Self.lengthModifiers where matches(modifier) {
            text += modifier
            position += modifier.unicodeScalars.count
            break
        }
        guard let conversion = peek(), Self.conversions.contains(conversion) else {
            if let c = peek(), !c.properties.isWhitespace { position += 1 }
            throw PredicateSyntaxError(
                "unknown format specifier '\(String(String.UnicodeScalarView(scalars[start..<position])))': expected %@, %K or a printf conversion such as %d or %f",
                at: range(from: start))
        }
        text.unicodeScalars.append(conversion)
        position += 1
        return Token(.formatSpecifier(text), range(from: start))
    }

    func matches(_ text: String) -> Bool {
        var i = position
        for c in text.unicodeScalars {
            guard i < scalars.count, scalars[i] == c else { return false }
            i += 1
        }
        return true
    }
}
