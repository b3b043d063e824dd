import Foundation
import StratusModel

/// Everything known about a format string: the tree, its canonical form, every diagnostic,
/// and the compiled query when there are none.
///
/// The filter editor keeps all of it on every keystroke, so it can show the canonical form
/// and highlight each problem even when CloudKit would refuse the predicate.
public struct PredicateAnalysis: Sendable {
    public var source: String
    /// The parse failure, if the text is not a predicate at all.
    public var syntaxError: PredicateSyntaxError?
    /// The tree as parsed (specifiers in place).
    public var tree: PredicateNode?
    /// `tree` printed canonically.
    public var canonical: String?
    /// The tree with the arguments substituted (as far as they fit).
    public var boundTree: PredicateNode?
    public var boundCanonical: String?
    /// Syntax, argument, rule, schema and sort problems, sorted by position.
    public var diagnostics: [PredicateDiagnostic]
    /// The query, when there are no diagnostics.
    public var query: CompiledQuery?

    public var isValid: Bool { query != nil }
}

/// The entry point the engine, the command line and the filter editor call.
public enum PredicateCompiler {
    /// Parses, binds and checks `format`, keeping every intermediate result. Without a
    /// `schema`, `learnedTypes` are the field types known from records (a remote's).
    public static func analyze(
        format: String, arguments: [PredicateArgument] = [], recordType: String,
        schema: RecordTypeSchema? = nil, learnedTypes: [String: FieldType] = [:], sorts: [QuerySort] = [], now: Date = Date()
    ) -> PredicateAnalysis {
        var analysis = PredicateAnalysis(source: format, diagnostics: [])
        let tree: PredicateNode
        do {
            tree = try PredicateParser.parse(format)
        } catch {
            analysis.syntaxError = error
            analysis.diagnostics = [error.diagnostic]
            return analysis
        }
        analysis.tree = tree
        analysis.canonical = tree.canonicalFormat
        let (bound, bindingProblems) = PredicateBinder.bind(
            tree, arguments: arguments, sourceLength: format.unicodeScalars.count)
        analysis.boundTree = bound
        analysis.boundCanonical = bound.canonicalFormat
        var checker = CloudKitRuleChecker(recordType: recordType, schema: schema, learnedTypes: learnedTypes, now: now)
        let checked = checker.check(bound, sorts: sorts)
        analysis.diagnostics = PredicateDiagnostic.ordered(bindingProblems + checker.diagnostics)
        if analysis.diagnostics.isEmpty, let (filter, sortTerms) = checked {
            analysis.query = CompiledQuery(
                recordType: recordType, filter: filter, sorts: sortTerms,
                canonical: analysis.canonical ?? "", boundCanonical: analysis.boundCanonical ?? "")
        }
        return analysis
    }

    /// The compiled query, or every problem with it.
    public static func compile(
        format: String, arguments: [PredicateArgument] = [], recordType: String,
        schema: RecordTypeSchema? = nil, sorts: [QuerySort] = [], now: Date = Date()
    ) -> Result<CompiledQuery, PredicateDiagnostics> {
        let analysis = analyze(
            format: format, arguments: arguments, recordType: recordType, schema: schema, sorts: sorts, now: now)
        if let query = analysis.query { return .success(query) }
        var diagnostics = analysis.diagnostics
        if diagnostics.isEmpty {
            diagnostics = [PredicateDiagnostic(.unsupportedExpression, "The predicate can't be run as a CloudKit query", range: nil)]
        }
        return .failure(PredicateDiagnostics(source: format, diagnostics: diagnostics))
    }
}
