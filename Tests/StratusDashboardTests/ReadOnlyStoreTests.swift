import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// The dashboard on a store it cannot write: browsing works, an edit says why it failed.
@Suite struct ReadOnlyStoreTests {
    /// A read-only bind mount is a store even root cannot write; only root may make one.
    @Test(.enabled(if: geteuid() == 0, "a read-only bind mount needs root"))
    func browsesAStoreOnAReadOnlyFileSystemAndRefusesEdits() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-dash-ro-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/source", mountPoint = root + "/mount"
        for path in [source, mountPoint] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        do {
            var builder = DemoStoreBuilder(recordCount: 300)
            try builder.build(into: Store(path: source + "/demo.sqlite"))
        }
        // Root without the right to mount (a container) skips, visibly, as the XCTest twin does.
        guard run("/bin/mount", ["--bind", source, mountPoint]) else { try skip("cannot bind-mount here"); return }
        defer { _ = run("/bin/umount", [mountPoint]) }
        guard run("/bin/mount", ["-o", "remount,ro,bind", mountPoint]) else { try skip("cannot remount read-only here"); return }

        // Released before the file system is unmounted.
        do {
            let harness = try Harness(storePath: mountPoint + "/demo.sqlite")
            #expect(harness.store.isReadOnly)
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

    private func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Ends the running test as skipped (Swift 6.3's `Test.cancel`); older toolchains, which the
/// README allows, just return, as the test did before.
func skip(_ reason: String) throws {
    #if compiler(>=6.3)
    try Test.cancel(Comment(rawValue: reason))
    #endif
}
