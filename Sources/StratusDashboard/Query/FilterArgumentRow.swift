import StratusModel
import StratusPredicates

/// One format specifier of the filter text (`%@`, `%K`, `%d` ...) with the argument typed for
/// it, in the command line's `--arg` syntax (`string:Tokyo`, `int:5`, `key:title`).
struct FilterArgumentRow: Hashable, Sendable {
    /// The text after `%`: `@`, `K`, `d`, `lld` ...
    var specifier: String
    /// Where the specifier stands in the filter text, in code points (the check underlines it).
    var offset: Int
    var length: Int
    /// The typed text; read again whenever it changes, not each time the row is drawn.
    var field: TextField {
        didSet { if field.text != oldValue.text { parsed = Self.parse(field.text) } }
    }
    /// The text read in the command line's syntax; nil while it is empty.
    private var parsed: Result<PredicateArgument, PredicateArgumentError>?

    init(specifier: String, offset: Int, length: Int, text: String = "") {
        self.specifier = specifier
        self.offset = offset
        self.length = length
        self.field = TextField(text)
        self.parsed = Self.parse(text)
    }

    var isMissing: Bool { field.text.isEmpty }

    /// The argument the text stands for, when it parses.
    var argument: PredicateArgument? { try? parsed?.get() }

    /// Why the typed text is not an argument; nil when it is one or is still empty.
    var error: String? {
        if case .failure(let failure)? = parsed { return failure.message }
        return nil
    }

    /// What the row says after the field: the type read, or nothing yet.
    var summary: String {
        switch argument {
        case .value(let value)?: return "✓ \(value.type)"
        case .key(let name)?: return "✓ field \(name)"
        case nil: return ""
        }
    }

    /// An example of what to type for this specifier.
    var example: String {
        switch specifier.last {
        case "K": return "key:title"
        case "d", "i", "u", "D", "U": return "int:5"
        case "f", "e", "g", "F", "E", "G": return "double:2.5"
        default: return "string:Tokyo"
        }
    }

    private static func parse(_ text: String) -> Result<PredicateArgument, PredicateArgumentError>? {
        guard !text.isEmpty else { return nil }
        return Result { () throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
    }

    /// Rows for the specifiers of `filter`, in order, keeping what was typed for each position
    /// in `previous` (or `texts`, when given). Nil when the text does not lex (a string still
    /// open): the rows stay as they were until it does.
    static func rows(for filter: String, previous: [FilterArgumentRow] = [], texts: [String]? = nil) -> [FilterArgumentRow]? {
        guard let tokens = try? PredicateLexer.tokens(of: filter) else { return nil }
        var rows: [FilterArgumentRow] = []
        for token in tokens {
            guard case .formatSpecifier(let specifier) = token.kind else { continue }
            let index = rows.count
            var row = FilterArgumentRow(specifier: specifier, offset: token.range.offset, length: token.range.length,
                                        text: texts.map { index < $0.count ? $0[index] : "" } ?? "")
            // Keeps the typed field whole, cursor included.
            if texts == nil, index < previous.count { row.field = previous[index].field }
            rows.append(row)
        }
        return rows
    }

    /// The check as the editor shows it: a problem the engine placed on a specifier whose
    /// argument is missing or does not parse (it was left out of the binding) says so in
    /// the argument's words.
    static func explain(_ check: FilterCheck, rows: [FilterArgumentRow]) -> FilterCheck {
        guard var first = check.problems.first, let offset = first.offset,
              let index = rows.firstIndex(where: { $0.offset == offset && ($0.isMissing || $0.error != nil) }) else { return check }
        let row = rows[index]
        if let error = row.error {
            first.message = "argument \(index + 1) (%\(row.specifier)): \(error)"
        } else {
            first.message = "argument \(index + 1) for %\(row.specifier) is missing: type it under Arguments (Tab), e.g. \(row.example)"
        }
        var explained = check
        explained.problems[0] = first
        return explained
    }
}
