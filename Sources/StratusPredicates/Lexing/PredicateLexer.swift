/// Splits a predicate format string into tokens.
///
/// Works on an array of Unicode scalars so every offset is a code point index, and never
/// recurses, so any input (NULs, huge literals, emoji) either lexes or fails with a range.
public struct PredicateLexer {
    let scalars: [Unicode.Scalar]
    var position = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// All tokens of `source`, ending with `.endOfInput`.
    public static func tokens(of source: String) throws(PredicateSyntaxError) -> [Token] {
        try tokens(of: Array(source.unicodeScalars))
    }

    static func tokens(of scalars: [Unicode.Scalar]) throws(PredicateSyntaxError) -> [Token] {
        var lexer = PredicateLexer(scalars: scalars)
        var result: [Token] = []
        while true {
            let token = try lexer.next()
            result.append(token)
            if token.kind == .endOfInput { return result }
        }
    }

    // MARK: - Scanning

    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    func range(from start: Int) -> SourceRange { .between(start, position) }

    mutating func next() throws(PredicateSyntaxError) -> Token {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return Token(.endOfInput, SourceRange(offset: position, length: 0)) }

        if c == "'" || c == "\"" { return try string(quote: c) }
        if CharacterClass.isDigit(c) || (c == "." && peek(1).map(CharacterClass.isDigit) == true) {
            return try number()
        }
        if CharacterClass.isIdentifierStart(c) { return word() }
        switch c {
        case "%": return try formatSpecifier()
        case "$":
            position += 1
            guard let name = identifierText() else {
                throw PredicateSyntaxError("expected a variable name after '$'", at: range(from: start))
            }
            return Token(.variable(name), range(from: start))
        case "#":
            position += 1
            guard let name = identifierText() else {
                throw PredicateSyntaxError("expected a key after '#'", at: range(from: start))
            }
            return Token(.identifier(name), range(from: start))
        case "@":
            position += 1
            guard let name = identifierText() else {
                throw PredicateSyntaxError("expected a collection operator after '@', such as @count", at: range(from: start))
            }
            return Token(.atIdentifier("@" + name), range(from: start))
        default:
            return try symbol(c, start: start)
        }
    }

    /// Reads `[A-Za-z_][A-Za-z0-9_]*` (Unicode letters allowed), or nil.
    mutating func identifierText() -> String? {
        guard let first = peek(), CharacterClass.isIdentifierStart(first) else { return nil }
        var text = String.UnicodeScalarView()
        while let c = peek(), CharacterClass.isIdentifierContinue(c) {
            text.append(c)
            position += 1
        }
        return String(text)
    }

    mutating func word() -> Token {
        let start = position
        let text = identifierText() ?? ""
        let upper = text.uppercased()
        if upper == "UTI", let keyword = utiKeyword() {
            return Token(.keyword(keyword), range(from: start))
        }
        if let keyword = Keyword.byName[upper] {
            return Token(.keyword(keyword), range(from: start))
        }
        // `name:` starts an Objective-C selector such as `distanceToLocation:fromLocation:`.
        if peek() == ":", peek(1) != "=" {
            var selector = text + ":"
            position += 1
            while let c = peek(), CharacterClass.isIdentifierStart(c) {
                let save = position
                guard let part = identifierText(), peek() == ":", peek(1) != "=" else {
                    position = save
                    break
                }
                selector += part + ":"
                position += 1
            }
            return Token(.selector(selector), range(from: start))
        }
        return Token(.identifier(text), range(from: start))
    }

    /// `UTI-CONFORMS-TO` / `UTI-EQUALS`, read after `UTI`.
    mutating func utiKeyword() -> Keyword? {
        for (suffix, keyword) in [("-CONFORMS-TO", Keyword.utiConformsTo), ("-EQUALS", .utiEquals)] {
            let tail = Array(suffix.unicodeScalars)
            guard position + tail.count <= scalars.count else { continue }
            var matches = true
            for (offset, expected) in tail.enumerated() {
                let actual = scalars[position + offset]
                if actual != expected && String(actual).uppercased() != String(expected) {
                    matches = false
                    break
                }
            }
            let after = position + tail.count
            if matches && (after >= scalars.count || !CharacterClass.isIdentifierContinue(scalars[after])) {
                position = after
                return keyword
            }
        }
        return nil
    }

    mutating func symbol(_ c: Unicode.Scalar, start: Int) throws(PredicateSyntaxError) -> Token {
        position += 1
        let next = peek()
        func take(_ symbol: Symbol, extra: Int = 0) -> Token {
            position += extra
            return Token(.symbol(symbol), range(from: start))
        }
        switch c {
        case "(": return take(.leftParen)
        case ")": return take(.rightParen)
        case "{": return take(.leftBrace)
        case "}": return take(.rightBrace)
        case "[": return take(.leftBracket)
        case "]": return take(.rightBracket)
        case ",": return take(.comma)
        case ".": return take(.dot)
        case "+": return take(.plus)
        case "-": return take(.minus)
        case "/": return take(.slash)
        case "^": return take(.caret)
        case "~": return take(.tilde)
        case "*": return next == "*" ? take(.power, extra: 1) : take(.star)
        case "&": return next == "&" ? take(.andAnd, extra: 1) : take(.ampersand)
        case "|": return next == "|" ? take(.orOr, extra: 1) : take(.pipe)
        case "!": return next == "=" ? take(.notEqual, extra: 1) : take(.bang)
        case "=":
            switch next {
            case "=": return take(.equal, extra: 1)
            case "<": return take(.lessOrEqual, extra: 1)
            case ">": return take(.greaterOrEqual, extra: 1)
            default: return take(.equal)
            }
        case "<":
            switch next {
            case "=": return take(.lessOrEqual, extra: 1)
            case ">": return take(.notEqual, extra: 1)
            case "<": return take(.shiftLeft, extra: 1)
            default: return take(.less)
            }
        case ">":
            switch next {
            case "=": return take(.greaterOrEqual, extra: 1)
            case ">": return take(.shiftRight, extra: 1)
            default: return take(.greater)
            }
        case ":":
            if next == "=" { return take(.assign, extra: 1) }
            throw PredicateSyntaxError("unexpected ':' (only ':=' or a selector such as distanceToLocation:fromLocation: may use it)", at: range(from: start))
        default:
            throw PredicateSyntaxError("unexpected character \(CharacterClass.describe(c))", at: range(from: start))
        }
    }
}
