import ArgumentParser
import Foundation
import StratusEngine

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Make (once) a demo store: zones and record types using every field type, with a history of changes."
    )

    @Option(help: "The store file (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "About how many records to make.") var records: Int = 3000
    @Flag(help: "Throw away the store at that path and make the demo again.") var reset = false
    @Flag(help: "Make the store and print what to try, without opening the dashboard (the dashboard opens otherwise).") var noUi = false

    func validate() throws {
        if records < 50 || records > 5_000_000 { throw ValidationError("--records must be between 50 and 5000000") }
    }

    func run() throws {
        let path = store ?? StoreLocation.defaultPath
        if reset {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let opened = try StoreLocation.open(path)
        if try DemoStoreBuilder.isDemo(opened) {
            Output.warn("Using the demo store at \(path) (--reset makes it again).")
        } else {
            guard try DemoStoreBuilder.isEmpty(opened) else {
                throw CommandFailure.failed("the store at \(path) already holds data that is not the demo; pass --store to make the demo elsewhere, or --reset to replace it")
            }
            Output.warn("Making the demo store at \(path) ...")
            var builder = DemoStoreBuilder(recordCount: records)
            let started = Date()
            try builder.build(into: opened)
            Output.warn(String(format: "Done in %.1f s.", Date().timeIntervalSince(started)))
        }
        if !noUi {
            try DashboardLauncher.run(DashboardLauncher.Options(storePath: path, zone: DemoStoreBuilder.markerZone.zoneName, recordType: "Trip"),
                                      store: opened)
            return
        }
        let quoted = path.contains(" ") ? "'\(path)'" : path
        Output.line("""
            Demo store: \(path)
            Try:
              stratus zones --store \(quoted)
              stratus fetch --store \(quoted) --zone Travel trip-2 place-2
              stratus changes --store \(quoted) --zone Library --limit 5
              stratus token --store \(quoted) --zone Travel
            """)
    }
}
