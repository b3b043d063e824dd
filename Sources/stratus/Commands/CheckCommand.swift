import ArgumentParser
import Foundation
import StratusEngine
import StratusPredicates
import StratusCloud
import StratusCKWS

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a predicate under CloudKit's rules; with --type also against the store's schema and indexes.",
        discussion: "Exit 0 when CloudKit would accept it (prints the canonical form), 1 when not (message and a caret under the problem)."
    )

    @OptionGroup var common: CommonOptions
    @Argument(help: "An NSPredicate format string.") var format: String
    @Option(name: .customLong("arg"), help: "TYPE:VALUE for each format specifier, in order.") var arguments: [String] = []
    @Option(help: "Check fields and indexes against this record type of the store.") var type: String?
    @Option(help: "[-]FIELD sort descriptors to check as well.") var sort: [String] = []
    @Flag(help: "Also print the query as a CloudKit Web Services client sends it (records/query's query: recordType, filterBy, sortBy).")
    var ckws = false

    func run() throws {
        let arguments = try ArgumentParsing.parse(self.arguments, filter: format)
        let sorts = sort.map(SortParsing.parse)
        let analysis: PredicateAnalysis
        if let type {
            analysis = try common.database().analyze(Query(recordType: type, predicateFormat: format, arguments: arguments, sortDescriptors: sorts))
        } else {
            analysis = PredicateCompiler.analyze(format: format, arguments: arguments, recordType: "Record", sorts: sorts)
        }
        if let query = analysis.query {
            let web = ckws ? QueryJSON.encode(recordType: type ?? "Record", filter: query.filter, sorts: query.sorts) : nil
            if common.json {
                var members: [(String, JSONValue)] = [("valid", .bool(true)), ("canonical", .string(query.boundCanonical))]
                if ckws { members.append(("ckws", web ?? .null)) }
                Output.json(.object(members))
            } else {
                Output.line("valid: \(query.boundCanonical)")
                if ckws {
                    Output.line(web.map { JSONWriter.string($0, pretty: true) }
                                ?? "(CloudKit Web Services has no filterBy for FALSEPREDICATE: it matches nothing)")
                }
            }
            return
        }
        let diagnostics = analysis.diagnostics
        if common.json {
            let first = diagnostics.first
            Output.json(.object([
                ("valid", .bool(false)),
                ("error", .object([
                    ("reason", .string(first?.message ?? "not a CloudKit query")),
                    ("code", .string(first?.code.rawValue ?? "unsupportedExpression")),
                    ("offset", first?.range.map { .integer(Int64($0.offset)) } ?? .null),
                    ("length", first?.range.map { .integer(Int64($0.length)) } ?? .null),
                ])),
                ("errors", .array(diagnostics.map { diagnostic in
                    .object([("reason", .string(diagnostic.message)), ("code", .string(diagnostic.code.rawValue)),
                             ("offset", diagnostic.range.map { .integer(Int64($0.offset)) } ?? .null),
                             ("length", diagnostic.range.map { .integer(Int64($0.length)) } ?? .null)])
                })),
            ]))
        } else {
            FileHandle.standardError.write(Data((PredicateDiagnostics(source: format, diagnostics: diagnostics).rendered() + "\n").utf8))
        }
        throw CommandFailure(message: "", exitCode: 1)
    }
}
