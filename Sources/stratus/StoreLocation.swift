import Foundation
import StratusCloud
import StratusEngine
import StratusSQLite
import StratusStores

/// Where the store lives when `--store` is not given, and how commands open it.
enum StoreLocation {
    static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment["STRATUS_STORE"], !path.isEmpty { return path }
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/stratus/store.sqlite"
    }

    /// Opens the store at `path`, saying on standard error when a store made by an older
    /// Stratus is being upgraded (it rewrites index rows once, seconds on a large store), and
    /// when a command that sets stores up makes a new one (so a mistyped path shows at once).
    /// Commands that only use a store pass `.refuse`: a path with nothing there is an error.
    ///
    /// A process opens each store once and reuses it: two handles on one file in one process
    /// would break SQLite's locks when either closes.
    static func open(_ path: String, ifMissing: MissingStore, creatingWith environment: StoreEnvironment? = nil,
                     memoryMapBytes: Int = Store.defaultMemoryMapBytes) throws -> Store {
        try opened.open(path) {
            let isNew = !StoreOpener.storeExists(at: path)
            let store = try StoreOpener.open(path, ifMissing: ifMissing, creatingWith: environment, memoryMapBytes: memoryMapBytes) {
                FileHandle.standardError.write(Data("Upgrading \(StoreOpener.shown(path)) for this version of Stratus (once; a large store takes some seconds)...\n".utf8))
            }
            if isNew { FileHandle.standardError.write(Data("Made a new store at \(StoreOpener.shown(path)).\n".utf8)) }
            return store
        }
    }

    /// Lets go of every store this process opened, as the process ends: the last connection to
    /// a store then closes, and SQLite folds its write-ahead log into the file and removes it.
    /// Left open, a bulk write's log (hundreds of megabytes after a million-record import or
    /// demo) stayed beside the store, and every later process read all of it again on opening
    /// (half a second at a million records) until one closed the store.
    static func closeAll() { opened.closeAll() }

    private static let opened = OpenedStores()
}

/// The stores this process has open, by path.
private final class OpenedStores: @unchecked Sendable {
    private let lock = NSLock()
    private var stores: [String: Store] = [:]

    func open(_ path: String, _ make: () throws -> Store) throws -> Store {
        lock.lock()
        defer { lock.unlock() }
        if let known = stores[path] { return known }
        let store = try make()
        stores[path] = store
        return store
    }

    /// Drops the process's references; a store nothing else holds closes.
    func closeAll() {
        lock.lock()
        let closing = stores
        stores = [:]
        lock.unlock()
        // Released outside the lock: closing checkpoints, which takes a moment on a large log.
        withExtendedLifetime(closing) {}
    }
}
