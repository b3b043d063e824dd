/// One lexical token of a predicate format string, with where it came from.
public struct Token: Hashable, Sendable {
    public var kind: TokenKind
    public var range: SourceRange

    public init(_ kind: TokenKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// What a token is. Synonymous spellings (`=`/`==`, `AND`/`&&`, `NIL`/`NULL`) lex to the same
/// kind so the parser never cares how the user wrote them; the source keeps the spelling.
public enum TokenKind: Hashable, Sendable {
    /// A key or function name; `#name` escapes a reserved word and lexes here too.
    case identifier(String)
    /// `@count`, `@sum` ...: a collection operator or key.
    case atIdentifier(String)
    /// `distanceToLocation:fromLocation:`: an Objective-C selector naming a function.
    case selector(String)
    case keyword(Keyword)
    case string(String)
    /// An integer's magnitude (the sign is a separate `-`), so `-9223372036854775808` fits.
    case integer(UInt64)
    case double(Double)
    /// `%@`, `%K`, `%d`, `%lld` ...: the text after `%`.
    case formatSpecifier(String)
    /// `$name`.
    case variable(String)
    case symbol(Symbol)
    case endOfInput
}

/// The reserved words of the format syntax. All are case-insensitive.
public enum Keyword: String, Hashable, Sendable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case anyKey = "ANYKEY", subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    /// Reserved words by their upper-case spelling.
    static let byName: [String: Keyword] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Whether `word` (any case) is reserved and must be written `#word` to be a key.
    public static func isReserved(_ word: String) -> Bool { byName[word.uppercased()] != nil }
}

/// Punctuation and operator symbols.
public enum Symbol: String, Hashable, Sendable {
    case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = "."
    /// `=` or `==`.
    case equal = "=="
    /// `!=` or `<>`.
    case notEqual = "!="
    case less = "<"
    /// `<=` or `=<`.
    case lessOrEqual = "<="
    case greater = ">"
    /// `>=` or `=>`.
    case greaterOrEqual = ">="
    /// `&&`.
    case andAnd = "&&"
    /// `||`.
    case orOr = "||"
    /// `!` (NOT).
    case bang = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", power = "**"
    case ampersand = "&", pipe = "|", caret = "^", tilde = "~"
    case shiftLeft = "<<", shiftRight = ">>"
    /// `:=` (variable assignment).
    case assign = ":="
}
