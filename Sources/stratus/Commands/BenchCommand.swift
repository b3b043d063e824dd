import ArgumentParser
import Foundation
import StratusBench
import StratusEngine
import StratusCKWS

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure every workload on Stratus and on hand-made tables holding the same data in the same database.",
        discussion: """
            Prints the median milliseconds of each workload on both, and the ratio Stratus / baseline. A file store is measured \
            against plain SQLite; with --store postgres://... a PostgreSQL store (in the URL's schema, stratus_bench when it names \
            none) against PostgreSQL itself on hand-made tables (in SCHEMA_baseline).
            Build with `swift build -c release` first: debug builds are many times slower.
            Workloads: \(BenchWorkload.allCases.map(\.rawValue).joined(separator: ", ")).
            """
    )

    @Option(help: "How many records (default 1000000).") var records: Int = 1_000_000
    @Option(help: "Only this workload (repeatable).") var workload: [String] = []
    @Option(help: "A folder for the stores, or a PostgreSQL URL; reused when it holds the same number of records (default: a temporary folder).") var store: String?
    @Option(help: "Timed runs per workload, after one warm-up.") var runs: Int = 5
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func validate() throws {
        if records < 1000 { throw ValidationError("--records must be at least 1000") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        for name in workload where BenchWorkload(rawValue: name) == nil {
            throw ValidationError("unknown workload '\(name)'; known: \(BenchWorkload.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let selected = workload.isEmpty ? BenchWorkload.allCases : workload.compactMap(BenchWorkload.init(rawValue:))
        let temporary = store == nil
        let directory = store ?? FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)").path
        defer { if temporary { try? FileManager.default.removeItem(atPath: directory) } }
        let runner = BenchRunner(records: records, storeDirectory: directory, workloads: selected, runs: runs) { Output.warn($0) }
        let results = try runner.run()
        if json {
            Output.json(.object([
                ("records", .integer(Int64(records))),
                ("baseline", .string(runner.baselineName)),
                ("workloads", .array(results.map { result in
                    var members: [(String, JSONValue)] = [
                        ("name", .string(result.name)),
                        ("stratus_ms", .number(result.stratusMilliseconds)),
                        ("baseline_ms", result.baselineMilliseconds.map { .number($0) } ?? .null),
                        ("ratio", result.ratio.map { .number($0) } ?? .null),
                    ]
                    for (key, value) in result.extras { members.append((key, .number(value))) }
                    return .object(members)
                })),
            ]))
            return
        }
        Output.line("\(records) records")
        let baselineHeader = "\(runner.baselineName.uppercased()) ms"
        Output.line("WORKLOAD                  STRATUS ms" + String(repeating: " ", count: max(1, 12 - baselineHeader.count)) + baselineHeader + "   RATIO  NOTES")
        for result in results {
            let notes = result.extras.map { key, value in
                "\(key) \(value >= 1000 || value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.2f", value))"
            }.joined(separator: ", ")
            Output.line(result.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                        + String(format: "%12.3f", result.stratusMilliseconds)
                        + (result.baselineMilliseconds.map { String(format: "%12.3f", $0) } ?? "           -")
                        + (result.ratio.map { String(format: "%8.2f", $0) } ?? "       -")
                        + "  " + notes)
        }
    }
}
