import Foundation

/// Where the store lives when `--store` is not given.
enum StoreLocation {
    static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment["STRATUS_STORE"], !path.isEmpty { return path }
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/stratus/store.sqlite"
    }
}
