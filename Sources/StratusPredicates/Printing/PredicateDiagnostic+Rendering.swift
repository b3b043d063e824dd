import StratusText

/// Caret rendering for the command line and golden tests:
///
///     name CONTAINS 'bob'
///          ^~~~~~~~
///     CONTAINS on the string field 'name' ...
extension PredicateDiagnostic {
    public func rendered(source: String) -> String {
        guard let range else { return message }
        let scalars = Array(source.unicodeScalars)
        let offset = min(max(0, range.offset), scalars.count)
        var lineStart = offset
        while lineStart > 0, !Self.isLineBreak(scalars[lineStart - 1]) { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < scalars.count, !Self.isLineBreak(scalars[lineEnd]) { lineEnd += 1 }

        var line = String.UnicodeScalarView()
        var column = 0
        var underline = 0
        let rangeEnd = min(max(offset, range.end), lineEnd)
        for index in lineStart..<lineEnd {
            let scalar = scalars[index]
            let printable = scalar.properties.generalCategory == .control ? " " : scalar
            line.append(printable)
            let width = DisplayWidth.of(printable)
            if index < offset { column += width } else if index < rangeEnd { underline += width }
        }
        let marker = "^" + String(repeating: "~", count: max(0, underline - 1))
        return String(line) + "\n" + String(repeating: " ", count: column) + marker + "\n" + message
    }

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

extension PredicateSyntaxError {
    /// The error as a diagnostic (code `syntax`).
    public var diagnostic: PredicateDiagnostic { PredicateDiagnostic(.syntax, message, range: range) }
}
