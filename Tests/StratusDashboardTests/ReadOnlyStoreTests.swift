import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTerminal
import StratusTestSupport
import Testing

/// The dashboard on a store it cannot write: browsing works, an edit says why it failed.
@Suite struct ReadOnlyStoreTests {
    /// A read-only bind mount is a store even root cannot write; only root may make one.
    /// Whether this machine lets the test bind-mount and remount read-only (root outside a
    /// locked-down container), found out before the test runs so a machine that cannot shows
    /// the test as skipped rather than passed.
    static let canMountReadOnly: Bool = BindMount.works(readOnly: true)

    @Test(.enabled(if: ReadOnlyStoreTests.canMountReadOnly, "needs root and the right to bind-mount read-only"))
    func browsesAStoreOnAReadOnlyFileSystemAndRefusesEdits() throws {
        let folder = try TemporaryDirectory("stratus-dash-ro")
        defer { folder.remove() }
        let root = folder.path
        let source = root + "/source", mountPoint = root + "/mount"
        for path in [source, mountPoint] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        do {
            var builder = DemoStoreBuilder(recordCount: 300)
            try builder.build(into: Store(path: source + "/demo.sqlite"))
        }
        // The probe said mounting works here: a failure now is the test's failure.
        try #require(BindMount.mount(["--bind", source, mountPoint]), "cannot bind-mount \(source)")
        defer { BindMount.unmount(mountPoint) }
        try #require(BindMount.mount(["-o", "remount,ro,bind", mountPoint]), "cannot remount \(mountPoint) read-only")

        // Released before the file system is unmounted.
        do {
            let harness = try Harness(storePath: mountPoint + "/demo.sqlite")
            #expect(harness.store.isReadOnly)
            // The header says so before any write is tried.
            #expect(harness.screen().split(separator: "\n").first?.contains("development · read-only") == true)
            #expect(harness.state.zones.map(\.zoneID.zoneName).contains("Travel"))
            #expect(harness.state.recordTypes.contains { $0.name == "Trip" })
            #expect(harness.state.status?.kind != .error)
            harness.press(.char("3"), .char("r"))
            #expect(harness.state.changes.finished)
            #expect(harness.state.changes.eventCount > 0)
            harness.press(.char("4"))
            #expect(harness.screen().contains("current token"))
            harness.press(.char("2"), .char("i"))
            harness.type("trip-0")
            harness.press(.enter)
            #expect(harness.state.fetch.rows.first?.record != nil)
            harness.press(.enter, .char("d"), .char("y"))
            #expect(harness.state.status?.kind == .error)
            #expect(harness.state.status?.text.contains("is read-only (it is on a read-only file system)") == true)
            #expect((try? harness.database.record(for: RecordID(recordName: "trip-0", zoneID: ZoneID(zoneName: "Travel")))) != nil)
        }
    }
}
