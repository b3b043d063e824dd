import StratusBench
import StratusCloud
import StratusEngine
import StratusTestSupport
import Testing

/// The bench's dashboard probe: the real app on an in-memory terminal, timed.
@Suite struct DashboardProbeTests {
    /// A demo store of 300 records (Trip records in Travel, among others).
    static func demoStore(in folder: TemporaryDirectory) throws -> Store {
        let store = try Store(path: folder.path("demo.sqlite"))
        var builder = DemoStoreBuilder(recordCount: 300)
        try builder.build(into: store)
        return store
    }

    @Test func probeReportsSaneFigures() throws {
        let folder = try TemporaryDirectory("stratus-probe")
        let store = try Self.demoStore(in: folder)
        let result = try DashboardProbe.run(store: store, zone: ZoneID(zoneName: "Travel"), recordType: "Trip", keys: 90)
        #expect(result.keys == 90)
        #expect(result.firstPageMilliseconds > 0)
        #expect(result.firstPageMilliseconds >= result.firstFrameMilliseconds)
        #expect(result.keyMedianMilliseconds > 0)
        #expect(result.keyMedianMilliseconds <= result.keyP95Milliseconds)
        #expect(result.keyP95Milliseconds <= result.keyMaxMilliseconds)
        #expect(result.rowsLoaded > 0, "\(result)")
        #expect(result.frames > 90)
        // Linux reports the peak (VmHWM); a missing reading fails rather than passes.
        #expect((result.peakMemoryMiB ?? 0) > 0)
        #expect(DashboardProbe.script(count: 200).count == 200)
    }

    @Test func probeFailsClearlyOnAnUnknownType() throws {
        let folder = try TemporaryDirectory("stratus-probe")
        let store = try Self.demoStore(in: folder)
        #expect(throws: DashboardProbe.ProbeError.self) {
            _ = try DashboardProbe.run(store: store, zone: ZoneID(zoneName: "Travel"), recordType: "Nope", keys: 0, timeout: .seconds(5))
        }
    }
}
