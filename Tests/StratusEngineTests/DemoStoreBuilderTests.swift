import Testing
import StratusModel
@testable import StratusEngine
import StratusTestSupport

@Suite(.onEveryBackend) struct DemoStoreBuilderTests {
    /// `stratus demo --records` accepts 50 and up: the smallest demo must build (it once made a
    /// negative number of reviews and crashed), and about as many records as asked.
    @Test(arguments: [50, 51, 119, 130])
    func smallDemoStoresBuild(records: Int) throws {
        let temp = try TemporaryStore()
        var builder = DemoStoreBuilder(recordCount: records)
        try builder.build(into: temp.store)
        let count = try temp.privateDB.exportCount()
        #expect(count > 0 && count <= records, "\(count) records for \(records)")
    }
}
