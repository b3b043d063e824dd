import Foundation
import StratusCloud

/// A problem in `.ckdb` text, with its 1-based line and column, worded as cktool's validator
/// words it: `Encountered "BADTYPE" at line 6, column 25. Was expecting one of: ...`.
public struct SchemaLanguageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// The text found where something else was expected (`<EOF>` at the end); nil for rule
    /// violations (a duplicate field, an unknown role).
    public var found: String?
    /// What the grammar allowed there, as cktool lists it (`"STRING"`, `<IDENTIFIER>`).
    public var expected: [String]
    /// The whole sentence.
    public var message: String

    public var description: String { message }

    static func unexpected(_ token: SchemaToken, expecting expected: [String]) -> SchemaLanguageError {
        let found = token.kind == .end ? "<EOF>" : token.text
        let shown = token.kind == .end ? "\"<EOF>\"" : "\"" + token.text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        var message = "Encountered \(shown) at line \(token.line), column \(token.column)."
        if expected.count == 1 {
            message += " Was expecting: \(expected[0])"
        } else if !expected.isEmpty {
            message += " Was expecting one of: " + expected.joined(separator: ", ")
        }
        return SchemaLanguageError(line: token.line, column: token.column, found: found, expected: expected, message: message)
    }

    static func rule(_ message: String, line: Int, column: Int) -> SchemaLanguageError {
        let place = line > 0 ? " at line \(line), column \(column)" : ""
        return SchemaLanguageError(line: line, column: column, found: nil, expected: [], message: message + place + ".")
    }
}

/// A token of the schema language.
struct SchemaToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A bare word: a keyword or an identifier (`RECORD`, `Department`, `INT64`).
        case word
        /// A double-quoted identifier; `value` is the text between the quotes.
        case quoted
        /// One of `( ) , ; < >`.
        case symbol
        case end
    }

    var kind: Kind
    /// The identifier or symbol (for `quoted`, without the quotes).
    var value: String
    /// The text as written (with quotes), for messages.
    var text: String
    var line: Int
    var column: Int

    /// Whether this is the keyword `word` (keywords are case-insensitive).
    func isKeyword(_ word: String) -> Bool { kind == .word && value.uppercased() == word }

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol && value == symbol }
}

/// Splits `.ckdb` text into tokens, skipping white space and `//`, `--` and `/* */` comments.
/// Columns count Unicode scalars from 1, a tab counting as one.
struct SchemaLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1
    private var column = 1

    init(text: String) { scalars = Array(text.unicodeScalars) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func advance() {
        if scalars[position] == "\n" { line += 1; column = 1 } else { column += 1 }
        position += 1
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    mutating func next() throws(SchemaLanguageError) -> SchemaToken {
        try skipSpaceAndComments()
        let startLine = line, startColumn = column
        guard let scalar = peek() else { return SchemaToken(kind: .end, value: "", text: "", line: line, column: column) }
        if SchemaLexer.isIdentifierStart(scalar) {
            var word = String.UnicodeScalarView()
            while let next = peek(), SchemaLexer.isIdentifierPart(next) { word.append(next); advance() }
            let text = String(word)
            return SchemaToken(kind: .word, value: text, text: text, line: startLine, column: startColumn)
        }
        if scalar == "\"" {
            advance()
            var name = String.UnicodeScalarView()
            while true {
                guard let next = peek(), next != "\n" else {
                    throw SchemaLanguageError.rule("Lexical error: a quoted identifier is not closed on its line", line: startLine, column: startColumn)
                }
                advance()
                if next == "\"" { break }
                name.append(next)
            }
            let value = String(name)
            if value.isEmpty {
                throw SchemaLanguageError.rule("Lexical error: an empty quoted identifier \"\"", line: startLine, column: startColumn)
            }
            return SchemaToken(kind: .quoted, value: value, text: "\"\(value)\"", line: startLine, column: startColumn)
        }
        if "(),;<>".unicodeScalars.contains(scalar) {
            advance()
            let text = String(scalar)
            return SchemaToken(kind: .symbol, value: text, text: text, line: startLine, column: startColumn)
        }
        let shown = scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        throw SchemaLanguageError(line: startLine, column: startColumn, found: shown, expected: [],
                                  message: "Lexical error at line \(startLine), column \(startColumn). Encountered: \"\(shown)\" (\(scalar.value))")
    }

    private mutating func skipSpaceAndComments() throws(SchemaLanguageError) {
        while let scalar = peek() {
            if scalar.properties.isWhitespace {
                advance()
            } else if (scalar == "/" && peek(1) == "/") || (scalar == "-" && peek(1) == "-") {
                while let next = peek(), next != "\n" { _ = next; advance() }
            } else if scalar == "/" && peek(1) == "*" {
                let startLine = line, startColumn = column
                advance(); advance()
                while true {
                    guard peek() != nil else {
                        throw SchemaLanguageError.rule("Lexical error: a comment is not closed with */", line: startLine, column: startColumn)
                    }
                    if peek() == "*" && peek(1) == "/" { advance(); advance(); break }
                    advance()
                }
            } else {
                return
            }
        }
    }
}
