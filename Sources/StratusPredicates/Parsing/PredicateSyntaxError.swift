/// Why a format string is not a predicate at all, and where.
///
/// Messages read "expected X, found Y" so the editor and the command line can show them under
/// a caret without further explanation.
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var range: SourceRange

    public init(_ message: String, at range: SourceRange) {
        self.message = message
        self.range = range
    }

    public var description: String { "\(message) (at \(range.offset))" }
}
