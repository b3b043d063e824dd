import Foundation
import StratusBench
import StratusCloud
import StratusEngine
import StratusStores
import StratusTestSupport
import Testing

/// `stratus bench` on each backend against its own database's hand-made tables: the baseline
/// answers each workload's question with the same rows Stratus does, the floors run, the stores
/// are reused, and a PostgreSQL schema holding someone's store is never replaced.
@Suite struct BenchBaselineTests {
    static let workloads: [BenchWorkload] = [.save, .queryEquality, .queryRangeSort, .queryBeginsWith, .queryTokens, .queryList, .queryAllByModified,
                                             .queryTailTwoSorts, .countType, .countFiltered, .cursor10k, .playbackAfter10k, .playbackFull, .export, .import]

    private func run(_ location: String) throws -> (results: [String: BenchResult], baseline: String) {
        let runner = BenchRunner(records: 1_200, storeDirectory: location, workloads: Self.workloads, runs: 1) { _ in }
        let results = try runner.run()
        return (Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }), runner.baselineName)
    }

    private func extra(_ result: BenchResult?, _ key: String) -> Double? {
        result?.extras.first { $0.0 == key }?.1
    }

    private func checkAnswers(_ results: [String: BenchResult]) {
        for workload in Self.workloads {
            let result = results[workload.rawValue]
            #expect(result != nil, "\(workload.rawValue) ran")
            #expect((result?.baselineMilliseconds ?? 0) > 0, "\(workload.rawValue) has a baseline")
            if let stratusRows = extra(result, "stratus_rows") {
                #expect(stratusRows == extra(result, "baseline_rows"), "\(workload.rawValue): the baseline answers the same rows")
            }
        }
        #expect(extra(results["query-equality"], "stratus_rows").map { $0 > 0 } == true)
        #expect(extra(results["count-filtered"], "matches").map { $0 > 0 } == true)
        #expect(extra(results["save"], "floor_records_per_s").map { $0 > 0 } == true)
        #expect(extra(results["import"], "baseline_records_per_s").map { $0 > 0 } == true)
    }

    @Test func aFileStoreAgainstSQLite() throws {
        let folder = try TemporaryDirectory("stratus-bench")
        let first = try run(folder.path("bench"))
        #expect(first.baseline == "SQLite")
        checkAnswers(first.results)
        #expect(extra(first.results["save"], "reused") == nil)
        let again = try run(folder.path("bench"))
        #expect(extra(again.results["save"], "reused") == 1)
    }

    @Test func aPostgresStoreAgainstPostgres() throws {
        let url = try TestPostgres.freshStoreURL()
        let schema = try #require(url.components(separatedBy: "schema=").last)
        defer {
            for suffix in ["", "_baseline", "_floor", "_import", "_import_copy"] {
                TestPostgres.drop(url.replacingOccurrences(of: "schema=\(schema)", with: "schema=\(schema)\(suffix)"))
            }
        }
        let first = try run(url)
        #expect(first.baseline == "PostgreSQL")
        checkAnswers(first.results)
        let again = try run(url)
        #expect(extra(again.results["save"], "reused") == 1)
        // The floors' and the import's schemas are gone; the store and the baseline stay.
        for suffix in ["_floor", "_import", "_import_copy"] {
            let other = url.replacingOccurrences(of: "schema=\(schema)", with: "schema=\(schema)\(suffix)")
            #expect(throws: CloudKitError.self) { try StoreOpener.open(other, ifMissing: .refuse) }
        }
    }

    @Test func aPostgresSchemaHoldingAStoreIsNeverReplaced() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let store = try StoreOpener.open(url, ifMissing: .create)
        try store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Mine")])
        let refusal = #expect(throws: CloudKitError.self) { try run(url) }
        #expect(refusal?.message.contains("holds a store the bench did not build") == true)
        #expect(try StoreOpener.open(url, ifMissing: .refuse).database(.private).allRecordZones().map(\.zoneID.zoneName).contains("Mine"))
    }
}
