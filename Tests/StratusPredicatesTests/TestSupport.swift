import Foundation
import StratusModel
@testable import StratusPredicates

/// The code-point range of the `occurrence`-th `part` in `source`.
func rangeOf(_ part: String, in source: String, occurrence: Int = 1) -> SourceRange {
    let s = Array(source.unicodeScalars), p = Array(part.unicodeScalars)
    var seen = 0
    if p.count <= s.count {
        for start in 0...(s.count - p.count) where Array(s[start..<(start + p.count)]) == p {
            seen += 1
            if seen == occurrence { return SourceRange(offset: start, length: p.count) }
        }
    }
    fatalError("'\(part)' not in '\(source)'")
}

func parse(_ source: String) throws -> PredicateNode {
    try PredicateParser.parse(source)
}

func syntaxError(_ source: String) -> PredicateSyntaxError? {
    do {
        _ = try PredicateParser.parse(source)
        return nil
    } catch {
        return error
    }
}

/// A comparison's parts, for concise assertions.
func comparison(_ source: String) throws -> ComparisonNode {
    let node = try parse(source)
    guard case .comparison(let c) = node.kind else { fatalError("not a comparison: \(source)") }
    return c
}

func key(_ name: String) -> ExpressionNode { ExpressionNode(.key(name)) }
func lit(_ literal: Literal) -> ExpressionNode { ExpressionNode(.literal(literal)) }
func cmp(_ lhs: ExpressionNode, _ op: PredicateOperator, _ rhs: ExpressionNode,
         modifier: ComparisonModifier = .direct, options: ComparisonOptions = []) -> PredicateNode {
    PredicateNode(.comparison(ComparisonNode(
        modifier: modifier, lhs: lhs, op: op, options: options, rhs: rhs,
        modifierRange: modifier == .direct ? nil : SourceRange.none, operatorRange: .none,
        optionsRange: options.isEmpty ? nil : SourceRange.none)), range: .none)
}

let fixedNow = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z

/// A schema like the demo's: every kind of field, with chosen indexes.
func itemSchema(indexes: FieldIndexes? = nil, recordIDQueryable: Bool = true) -> RecordTypeSchema {
    func field(_ name: String, _ type: FieldType) -> SchemaField {
        SchemaField(name: name, type: type, indexes: indexes ?? type.defaultIndexes)
    }
    var system = RecordTypeSchema.developmentSystemIndexes
    if !recordIDQueryable { system[.recordID] = [] }
    return RecordTypeSchema(name: "Item", fields: [
        "name": field("name", .string),
        "title": field("title", .string),
        "age": field("age", .int64),
        "price": field("price", .double),
        "born": field("born", .timestamp),
        "owner": field("owner", .reference),
        "place": field("place", .location),
        "photo": field("photo", .asset),
        "data": field("data", .bytes),
        "favoriteColors": field("favoriteColors", .list(.string)),
        "favoriteColor": field("favoriteColor", .string),
        "scores": field("scores", .list(.int64)),
    ], systemIndexes: system)
}

func compile(
    _ format: String, _ arguments: [PredicateArgument] = [], schema: RecordTypeSchema? = nil,
    recordType: String = "Item", sorts: [QuerySort] = []
) -> Result<CompiledQuery, PredicateDiagnostics> {
    PredicateCompiler.compile(
        format: format, arguments: arguments, recordType: recordType, schema: schema, sorts: sorts, now: fixedNow)
}

func terms(
    _ format: String, _ arguments: [PredicateArgument] = [], schema: RecordTypeSchema? = nil
) -> [FilterTerm]? {
    try? compile(format, arguments, schema: schema).get().filter.terms
}

func diagnostics(
    _ format: String, _ arguments: [PredicateArgument] = [], schema: RecordTypeSchema? = nil,
    recordType: String = "Item", sorts: [QuerySort] = []
) -> [PredicateDiagnostic] {
    PredicateCompiler.analyze(
        format: format, arguments: arguments, recordType: recordType, schema: schema, sorts: sorts, now: fixedNow
    ).diagnostics
}

/// A simple record for the evaluator.
struct TestRecord: FilterableRecord {
    var fields: [String: FieldValue] = [:]
    var system: [SystemField: FieldValue] = [:]

    func value(for key: FieldKey) -> FieldValue? {
        switch key {
        case .custom(let name, _): return fields[name]
        case .system(let field): return system[field]
        }
    }

    var customFieldNames: [String] { fields.keys.sorted() }
}

