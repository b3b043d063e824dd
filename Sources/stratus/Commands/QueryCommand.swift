import ArgumentParser
import Foundation
import StratusEngine
import StratusPredicates
import StratusCloud
import StratusCKWS

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Query records of one type in one zone with an NSPredicate format string, as CKQuery.",
        discussion: """
            --arg gives a value for each format specifier, in order: string:red, int:5, double:2.5, \
            date:2024-05-01T00:00:00Z, ref:RECORDNAME, location:37.33,-122.03, list:["red","green"], key:fieldName (for %K).
            A bare value fills %d (an integer), %f (a number) and %K (a field name): --arg 12.
            --sort takes a SORTABLE field: --sort=-FIELD or --sort FIELD:desc for descending; repeat it for several keys.
            """
    )

    @OptionGroup var common: CommonOptions
    @Option(help: "The record type.") var type: String
    @Option(help: "An NSPredicate format string (default TRUEPREDICATE).") var filter: String = "TRUEPREDICATE"
    @Option(name: .customLong("arg"), help: "TYPE:VALUE for each format specifier, in order.") var arguments: [String] = []
    @Option(help: "FIELD, FIELD:desc or =-FIELD: sort by a SORTABLE field.") var sort: [String] = []
    @Option(help: "Records per page (default \(CloudDatabase.defaultQueryLimit), at most \(CloudDatabase.maximumQueryLimit)).") var limit: Int?
    @Option(help: "Only these fields (comma-separated).") var keys: String?
    @Flag(help: "System fields only.") var noKeys = false
    @Option(help: "Continue from this cursor (the query is inside it).") var cursor: String?
    @Flag(help: "Follow cursors to the end and print every record.") var all = false
    @Option(help: "text (the default), json (as --json) or csv (a header of field:TYPE columns, a row per record).")
    var format: QueryOutputFormat = .text

    func validate() throws {
        if keys != nil && noKeys { throw ValidationError("--keys and --no-keys exclude each other") }
        if let limit, limit < 1 || limit > CloudDatabase.maximumQueryLimit {
            throw ValidationError("--limit must be between 1 and \(CloudDatabase.maximumQueryLimit)")
        }
    }

    func run() throws {
        let arguments = try ArgumentParsing.parse(self.arguments, filter: filter)
        let database = try common.service()
        let query = Query(recordType: type, predicateFormat: filter, arguments: arguments, sortDescriptors: sort.map(SortParsing.parse))
        let desiredKeys: [String]? = noKeys ? [] : keys.map(parseKeyList)
        var page: QueryResultsPage
        do {
            if let cursor {
                page = try database.records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: limit)
            } else {
                page = try database.records(matching: query, inZoneWith: try common.zoneID(), desiredKeys: desiredKeys, resultsLimit: limit)
            }
        } catch let error as CloudKitError where error.predicateDiagnostics != nil {
            throw CommandFailure.failed("invalidArguments (12): the predicate is not a valid CloudKit query\n" + error.predicateDiagnostics!.rendered())
        }
        var records = page.records
        while all, let next = page.cursor {
            page = try database.records(continuingMatchFrom: next, desiredKeys: desiredKeys, resultsLimit: limit ?? CloudDatabase.maximumQueryLimit)
            records += page.records
        }
        if format == .csv {
            try common.localOnly("--format csv (it reads the schema)")
            var types = try common.openStore().recordTypes().filter { $0.name == type }
            if let desiredKeys { types = types.map { schema in var kept = schema; kept.fields = kept.fields.filter { desiredKeys.contains($0.key) }; return kept } }
            let csv: RecordCSV
            do { csv = try RecordCSV(types: types) } catch { throw CommandFailure.failed("cannot write CSV: \(error)") }
            FileHandle.standardOutput.write(Data((csv.headerLine + records.map(csv.line).joined()).utf8))
            if let next = page.cursor { Output.warn("more match: --cursor \(next)") }
            return
        }
        if common.json || format == .json {
            Output.json(.object([("records", .array(records.map(RecordJSON.encode))),
                                 ("continuationMarker", page.cursor.map { .string($0) } ?? .null)]))
            return
        }
        for record in records { Output.line(RecordPrinter.describe(record)) }
        Output.line("\(records.count) record\(records.count == 1 ? "" : "s")" + (page.cursor.map { "; more match: --cursor \($0)" } ?? ""))
    }
}

/// What `stratus query` prints.
enum QueryOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv
}

/// Reads `--sort` values: `name`, `-name`, `name:desc`, `name:asc`.
enum SortParsing {
    static func parse(_ text: String) -> QuerySort {
        let lower = text.lowercased()
        if lower.hasSuffix(":desc") { return QuerySort(String(text.dropLast(5)), ascending: false) }
        if lower.hasSuffix(":asc") { return QuerySort(String(text.dropLast(4)), ascending: true) }
        return QuerySort(parsing: text)
    }
}

/// Reads `--arg TYPE:VALUE` options, naming the one that is wrong. A bare value is read as the
/// type its specifier in `filter` implies (`%d` an integer, `%f` a number, `%K` a field).
enum ArgumentParsing {
    static func parse(_ texts: [String], filter: String?) throws -> [PredicateArgument] {
        let specifiers = filter.flatMap { try? PredicateLexer.tokens(of: $0) }?.compactMap { token -> String? in
            if case .formatSpecifier(let spec) = token.kind, spec != "%" { return spec }
            return nil
        } ?? []
        var arguments: [PredicateArgument] = []
        for (index, text) in texts.enumerated() {
            do {
                arguments.append(try PredicateArgument(parsing: text, filling: index < specifiers.count ? specifiers[index] : nil))
            } catch {
                throw CommandFailure.usage("--arg #\(index + 1) '\(text)': \(error.message)")
            }
        }
        return arguments
    }
}
