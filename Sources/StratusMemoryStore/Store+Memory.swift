import Foundation
import StratusCloud
import StratusEngine

extension Store {
    /// A new, empty store held in this process's memory (in `environment`, default
    /// development), named `location`: for tests and tools that want a scratch store. Nothing
    /// of it outlives the `Store`. A fault plan's marker file goes beside `location`, as beside a
    /// store file.
    package static func inMemory(named location: String, creatingWith environment: StoreEnvironment? = nil) throws -> Store {
        Store(backend: try MemoryBackend(location: location, environment: environment))
    }
}
