import Foundation
import StratusCloud
import StratusEngine
import StratusPostgres
import StratusSQLite

/// `stratus store copy`: a store copied whole from one location to another, between SQLite
/// files and PostgreSQL schemas in any direction (``Store/copy(to:progress:)`` carries every
/// table, so change tokens taken before the copy play back on it). Moving a store onto a
/// team's server and back, or keeping a backup, is then one command.
///
/// The source must exist (a mistyped location is an error, never a new empty store); the
/// destination must not hold data. A destination that did not exist is made, and removed again
/// when the copy fails, so a failure leaves the destination as it was.
package enum StoreCopier {
    /// Copies the store at `source` to `destination`, telling `progress` as tables are written.
    ///
    /// - Returns: how many rows of each table were copied.
    /// - Throws: `invalidArguments` when the two name one store or the destination holds data;
    ///   `badDatabase` with reason `storeNotFound` for a missing source, or for a location that
    ///   is not a store URL; `serviceUnavailable` for a PostgreSQL server that cannot be reached.
    @discardableResult
    package static func copy(from source: String, to destination: String,
                             progress: (StoreCopyProgress) -> Void = { _ in }) throws -> [CopiedTable: Int] {
        if try sameStore(source, destination) {
            throw CloudKitError(.invalidArguments, "\(StoreOpener.shown(source)) and \(StoreOpener.shown(destination)) name the same store; "
                + "copy it to another location.")
        }
        // Read before anything is made, so a bad destination URL or a missing source leaves
        // nothing behind.
        let existed = try exists(destination)
        guard try exists(source) else {
            throw CloudKitError(.badDatabase, "No store at \(StoreOpener.shown(source)).", reason: .storeNotFound(path: StoreOpener.shown(source)))
        }
        do {
            return try copyOpened(from: source, to: destination, progress: progress)
        } catch {
            if !existed { remove(destination) }
            throw error
        }
    }

    /// Opens both stores for the copy only, so they are closed (and a made destination can
    /// be removed) once it returns.
    private static func copyOpened(from source: String, to destination: String,
                                   progress: (StoreCopyProgress) -> Void) throws -> [CopiedTable: Int] {
        let from = try StoreOpener.open(source, ifMissing: .refuse)
        let into = try StoreOpener.open(destination, ifMissing: .create)
        return try from.copy(to: into, progress: progress)
    }

    /// Whether a store is at `location`; unlike ``StoreOpener/storeExists(at:)``, a bad URL or
    /// an unreachable server is an error here, not "no store", since a made store is removed
    /// when the copy fails.
    private static func exists(_ location: String) throws -> Bool {
        switch StoreOpener.backend(of: location) {
        case .postgres: return try PostgresBackend.exists(PostgresLocation(url: location))
        case .sqlite: return FileManager.default.fileExists(atPath: location)
        }
    }

    /// Whether two locations name one store: one file, or one schema of one database.
    private static func sameStore(_ first: String, _ second: String) throws -> Bool {
        switch (StoreOpener.backend(of: first), StoreOpener.backend(of: second)) {
        case (.sqlite, .sqlite):
            let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
            return resolved(first) == resolved(second)
        case (.postgres, .postgres):
            let (a, b) = (try PostgresLocation(url: first), try PostgresLocation(url: second))
            return (a.host, a.port, a.database, a.schema) == (b.host, b.port, b.database, b.schema)
        default:
            return false
        }
    }

    /// Removes the store a failed copy made: a file with its write-ahead log, or a schema.
    private static func remove(_ location: String) {
        switch StoreOpener.backend(of: location) {
        case .postgres:
            if let database = try? PostgresLocation(url: location) { try? PostgresBackend.drop(database) }
        case .sqlite:
            for suffix in ["", "-wal", "-shm", "-faults"] { try? FileManager.default.removeItem(atPath: location + suffix) }
        }
    }
}
