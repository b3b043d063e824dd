import Foundation
import StratusCloud
import StratusEngine
import StratusPostgres
import StratusStores

/// Where the bench keeps its stores: a folder (a file store and the SQLite baseline beside it)
/// or a PostgreSQL database (a store in one schema, the PostgreSQL baseline in another), so each
/// backend is measured against its own database doing the same work by hand.
enum BenchPlace {
    /// `stratus.sqlite`, `baseline.sqlite` and `bench.json` in the folder.
    case folder(URL)
    /// The store in `schema` of the database `url` names, the baseline in `SCHEMA_baseline`,
    /// the save floor in `SCHEMA_floor`, the import workload in `SCHEMA_import` and `SCHEMA_import_copy`.
    case postgres(url: String, schema: String)

    /// The schema a PostgreSQL URL without `?schema=` gets: never the default store's.
    static let defaultSchema = "stratus_bench"

    /// A folder path, or a `postgres://` URL.
    init(_ location: String) throws {
        guard StoreOpener.backend(of: location) == .postgres else {
            self = .folder(URL(fileURLWithPath: location))
            return
        }
        let url = location.contains("schema=") ? location
            : location + (location.contains("?") ? "&" : "?") + "schema=\(Self.defaultSchema)"
        self = .postgres(url: url, schema: try PostgresLocation(url: url).schema)
    }

    /// Where the Stratus store is.
    var storeLocation: String {
        switch self {
        case .folder(let folder): folder.appendingPathComponent("stratus.sqlite").path
        case .postgres(let url, _): url
        }
    }

    /// The same database with another schema.
    func postgresURL(schema: String) throws -> String {
        guard case .postgres(let url, _) = self else { throw CloudKitError(.internalError, "Not a PostgreSQL bench.") }
        return try PostgresLocation(url: url).withSchema(schema).url
    }

    /// Readies the place and opens the baseline.
    func openBaseline() throws -> any BenchBaseline {
        switch self {
        case .folder(let folder):
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try SQLiteBaseline(path: folder.appendingPathComponent("baseline.sqlite").path,
                                      sidecarPath: folder.appendingPathComponent("bench.json").path)
        case .postgres(let url, let schema):
            return try PostgresBaseline(url: url, schema: schema + "_baseline")
        }
    }

    /// Whether the store is there (with the baseline, it may be reused).
    func storeExists() throws -> Bool {
        switch self {
        case .folder: FileManager.default.fileExists(atPath: storeLocation)
        case .postgres(let url, _): try PostgresBackend.exists(PostgresLocation(url: url))
        }
    }

    /// Removes the stores so they are built again. On PostgreSQL a schema holding a store the
    /// bench did not build (it has no remembered figures) is refused, never dropped.
    func removeStores(baseline: any BenchBaseline) throws {
        switch self {
        case .folder(let folder):
            for name in ["stratus.sqlite", "baseline.sqlite", "bench.json"] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + suffix)) }
            }
        case .postgres(let url, let schema):
            let location = try PostgresLocation(url: url)
            if try PostgresBackend.exists(location), baseline.savedSidecar() == nil {
                throw CloudKitError(.invalidArguments, "The schema \(schema) at \(location.masked) holds a store the bench did not build; "
                    + "the bench replaces its store, so name a schema of its own (?schema=\(Self.defaultSchema)).")
            }
            try PostgresBackend.drop(location)
            try (baseline as? PostgresBaseline)?.remove()
        }
    }
}
