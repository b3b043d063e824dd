import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusStores

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Make (once) a demo store: zones and record types using every field type, with a history of changes."
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "About how many records to make.") var records: Int = 3000
    @Flag(help: "Throw away the store at that path and make the demo again.") var reset = false
    @Flag(help: "Make the store and print what to try, without opening the dashboard (the dashboard opens otherwise).") var noUi = false
    @Option(help: "travel (zones and types using every field type) or core-data (what NSPersistentCloudKitContainer writes).")
    var shape: DemoShape = .travel

    func validate() throws {
        if records < 50 || records > 5_000_000 { throw ValidationError("--records must be between 50 and 5000000") }
    }

    func run() throws {
        let path = store ?? StoreLocation.defaultPath
        if reset {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        // Mapped as the dashboard maps a store (not at all): the demo's own reads, and the
        // dashboard it opens on the store, then keep their resident memory small.
        let opened = try StoreLocation.open(path, ifMissing: .create, memoryMapBytes: DashboardLauncher.memoryMapBytes(ProcessInfo.processInfo.environment))
        if try shape.isDemo(opened) {
            Output.warn("Using the demo store at \(path) (--reset makes it again).")
        } else {
            guard try DemoStoreBuilder.isEmpty(opened) else {
                throw CommandFailure.failed("the store at \(path) already holds data that is not the demo; pass --store to make the demo elsewhere, or --reset to replace it")
            }
            Output.warn("Making the demo store at \(path) ...")
            let started = Date()
            try shape.build(records: records, into: opened)
            Output.warn(String(format: "Done in %.1f s.", Date().timeIntervalSince(started)))
        }
        if !noUi {
            try DashboardLauncher.run(DashboardLauncher.Options(storePath: path, zone: shape.zone.zoneName, recordType: shape.recordType),
                                      store: opened)
            return
        }
        let quoted = path.contains(" ") ? "'\(path)'" : path
        Output.line("""
            Demo store: \(path)
            Try:
            \(shape.tryLines.map { "  " + $0.replacingOccurrences(of: "STORE", with: quoted) }.joined(separator: "\n"))
            """)
    }
}

/// The demo data sets `stratus demo` makes.
enum DemoShape: String, ExpressibleByArgument, CaseIterable {
    case travel
    case coreData = "core-data"

    var zone: ZoneID { self == .travel ? DemoStoreBuilder.markerZone : CoreDataDemoBuilder.zone }
    var recordType: String { self == .travel ? "Trip" : "CD_Trip" }

    func isDemo(_ store: Store) throws -> Bool {
        self == .travel ? try DemoStoreBuilder.isDemo(store) : try CoreDataDemoBuilder.isDemo(store)
    }

    func build(records: Int, into store: Store) throws {
        switch self {
        case .travel:
            var builder = DemoStoreBuilder(recordCount: records)
            try builder.build(into: store)
        case .coreData:
            var builder = CoreDataDemoBuilder(recordCount: records)
            try builder.build(into: store)
        }
    }

    /// Commands worth trying on this demo (STORE stands for the store's path).
    var tryLines: [String] {
        switch self {
        case .travel:
            return ["stratus zones --store STORE", "stratus fetch --store STORE --zone Travel trip-2 place-2",
                    "stratus changes --store STORE --zone Library --limit 5", "stratus token --store STORE --zone Travel"]
        case .coreData:
            let zone = CoreDataLens.zoneName
            return ["stratus zones --store STORE", "stratus query --store STORE --zone \(zone) --type CD_Trip --filter 'CD_entityName == \"BusinessTrip\"' --limit 5",
                    "stratus query --store STORE --zone \(zone) --type CDMR --limit 5", "stratus schema export --store STORE"]
        }
    }
}
