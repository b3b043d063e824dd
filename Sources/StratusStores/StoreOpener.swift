import Foundation
import StratusCloud
import StratusEngine
import StratusPostgres
import StratusSQLite

/// Opens a store by its location, choosing the backend the location names: a `postgres://`
/// URL a PostgreSQL server, anything else a file, kept by SQLite. The engine names no backend;
/// the front ends (the `stratus` command, the server, the dashboard, the bench) open stores
/// here, so a new backend is added in this one place.
public enum StoreOpener {
    /// The backends a location can name.
    public enum Backend: Sendable, Equatable {
        case sqlite
        case postgres
    }

    /// The backend `location` names.
    public static func backend(of location: String) -> Backend {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") ? .postgres : .sqlite
    }

    /// Opens the store at `location`. When nothing is there, `ifMissing` says whether to make
    /// it (with `environment`) or refuse: only what sets a store up makes one, so a mistyped path
    /// given to a command that reads is an error, not a new empty store.
    /// See `Store(path:creatingWith:memoryMapBytes:upgrading:)` for a file's options.
    ///
    /// - Throws: `badDatabase` with reason `storeNotFound` for a missing store that is not to be
    ///   made (a file, or a PostgreSQL URL whose schema does not exist); `serviceUnavailable`
    ///   for a PostgreSQL server that cannot be reached; otherwise what opening it throws.
    public static func open(_ location: String, ifMissing: MissingStore, creatingWith environment: StoreEnvironment? = nil,
                            memoryMapBytes: Int = Store.defaultMemoryMapBytes, upgrading: (() -> Void)? = nil) throws -> Store {
        switch backend(of: location) {
        case .postgres:
            return try Store.postgres(location, creating: ifMissing == .create, environment: environment)
        case .sqlite:
            if ifMissing == .refuse && !storeExists(at: location) {
                throw CloudKitError(.badDatabase, "No store at \(location).", reason: .storeNotFound(path: location))
            }
            return try Store(path: location, creatingWith: environment, memoryMapBytes: memoryMapBytes, upgrading: upgrading)
        }
    }

    /// Where a server's stores (`stratus serve --stores LOCATION`) keep one container's
    /// environment: `LOCATION/CONTAINER/ENVIRONMENT.sqlite` in a folder, or a schema of its own
    /// in a PostgreSQL database (``PostgresLocation/schema(container:environment:)``).
    public static func location(in stores: String, container: String, environment: String) -> String {
        guard backend(of: stores) == .postgres, let database = try? PostgresLocation(url: stores) else {
            return "\(stores)/\(container)/\(environment).sqlite"
        }
        return database.withSchema(PostgresLocation.schema(container: container, environment: environment)).url
    }

    /// `location` as messages show it: a PostgreSQL URL's password masked.
    public static func shown(_ location: String) -> String {
        backend(of: location) == .postgres ? PostgresLocation.mask(location) : location
    }

    /// Whether something is at `location` to open (a folder there is refused when opened, with
    /// its own reason; for a PostgreSQL URL, whether its schema exists, false when unreachable).
    public static func storeExists(at location: String) -> Bool {
        switch backend(of: location) {
        case .postgres: return (try? PostgresLocation(url: location)).map { (try? PostgresBackend.exists($0)) ?? false } ?? false
        case .sqlite: return FileManager.default.fileExists(atPath: location)
        }
    }

    /// Whether what a server's `--stores` location names can be reached now, without opening
    /// a store: a PostgreSQL server answers (its database may hold no store yet), a folder exists.
    public static func canReach(_ location: String) -> Bool {
        switch backend(of: location) {
        case .postgres: return (try? PostgresLocation(url: location)).map { (try? PostgresBackend.exists($0)) != nil } ?? false
        case .sqlite: return FileManager.default.fileExists(atPath: location)
        }
    }

    /// The schema of the store at `location`, read without opening it as a store (nothing in
    /// it is written); see `Store.exportSchema(ofStoreAt:)`. A PostgreSQL store has no upgrade
    /// to run, so opening it writes nothing either.
    public static func exportSchema(ofStoreAt location: String) throws -> SchemaDocument {
        switch backend(of: location) {
        case .postgres: return try StoreOpener.open(location, ifMissing: .refuse).exportSchema()
        case .sqlite: return try Store.exportSchema(ofStoreAt: location)
        }
    }
}
