import Foundation
import Testing
import StratusModel
import StratusPredicates
@testable import StratusEngine
import StratusTestSupport

/// The query seam holds: the planner and executor, run over a second storage written in memory
/// with no SQL (``MemoryQueryStorage``), answer the differential test's random queries exactly
/// as over SQLite, page by page through their cursors' positions and from the end.
@Suite struct QueryStorageSeamTests {
    @Test func aSecondStorageAnswersEveryQueryAsSQLiteDoes() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Random")
        let generator = DifferentialQueryTests()
        var random = SeededGenerator(seed: 31)
        let records = (0..<200).map { generator.randomRecord($0, zone: zone, random: &random) }
        for start in stride(from: 0, to: records.count, by: 100) {
            _ = try temp.privateDB.modifyRecords(saving: Array(records[start..<start + 100])).savedRecords()
        }
        var compared = 0, nonEmpty = 0
        try QueryStorages.read(temp, zone: zone, type: "Thing") { storages in
            let (type, zoneRowID, memory, sqlite) = (storages.type, storages.zoneRowID, storages.memory, storages.sqlite)
            for round in 0..<600 {
                let (predicate, arguments, sorts) = generator.randomQuery(random: &random)
                guard case .success(let compiled) = PredicateCompiler.compile(format: predicate, arguments: arguments,
                                                                             recordType: "Thing", schema: type.schema, sorts: sorts, now: Date()) else { continue }
                let plan = QueryPlanner(type: type).plan(compiled)
                let limit = Int(random.next() % 40 + 8)
                func answer(_ storage: any QueryStorage) throws -> (pages: [[String]], tail: [String]) {
                    try QueryExecutor(storage: storage, zoneRowID: zoneRowID, type: type, query: compiled, plan: plan, limit: limit).pagesAndTail()
                }
                let overSQLite = try answer(sqlite)
                let overMemory = try answer(memory)
                #expect(overMemory.pages == overSQLite.pages, "round \(round): \(predicate) sorts \(sorts.map(\.key)), driver \(plan.driver)")
                #expect(overMemory.tail == overSQLite.tail, "round \(round): the tail of \(predicate)")
                compared += 1
                if overSQLite.pages.contains(where: { !$0.isEmpty }) { nonEmpty += 1 }
            }
        }
        #expect(compared > 400)
        #expect(nonEmpty > 200)
    }
}
