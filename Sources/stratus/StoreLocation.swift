import Foundation
import StratusEngine

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
    /// Stratus is being upgraded (it rewrites index rows once, seconds on a large store).
    static func open(_ path: String, creatingWith environment: StoreEnvironment? = nil) throws -> Store {
        try Store(path: path, creatingWith: environment) {
            FileHandle.standardError.write(Data("Upgrading \(path) for this version of Stratus (once; a large store takes some seconds)...\n".utf8))
        }
    }
}
