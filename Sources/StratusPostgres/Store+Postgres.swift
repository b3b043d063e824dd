import Foundation
import StratusCloud
import StratusEngine

extension Store {
    /// Opens the PostgreSQL store at `url`; a missing one is made (in `environment`) when
    /// `creating`, and refused with `storeNotFound` otherwise.
    package static func postgres(_ url: String, creating: Bool, environment: StoreEnvironment? = nil) throws -> Store {
        Store(backend: try PostgresBackend(location: PostgresLocation(url: url), creating: creating, environment: environment))
    }
}
