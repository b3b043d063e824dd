import Foundation
import StratusCloud
import StratusEngine

extension Store {
    /// Opens the store at `path`, an SQLite file, making it (with `environment`, default
    /// development) if the file does not exist yet.
    ///
    /// A store that cannot be written here (file or folder permissions, a read-only file system)
    /// opens for reading: queries, fetches and change playback work, and every write fails with
    /// `permissionFailure` naming the file and why it is read-only.
    ///
    /// `upgrading` is called before a store made by an older Stratus is brought up to date,
    /// which rewrites index rows and can take seconds on a large store: a tool can say so.
    ///
    /// - Throws: `CloudKitError` with `badDatabase` when the file is not a Stratus store, or
    ///   `incompatibleVersion` when a newer Stratus made it.
    ///   - memoryMapBytes: how much of the file each reading connection maps (SQLite's `mmap_size`).
    ///     Mapped reads are cheaper for lookups that jump around a large store, but mapped pages
    ///     count as the process's resident memory; a long-lived viewer maps less.
    public convenience init(path: String, creatingWith environment: StoreEnvironment? = nil, memoryMapBytes: Int = Store.defaultMemoryMapBytes,
                            upgrading: (() -> Void)? = nil) throws {
        self.init(backend: try SQLiteStoreFile(path: path, creatingWith: environment, memoryMapBytes: memoryMapBytes, upgrading: upgrading))
    }

    /// What each reading connection maps of the store file unless told otherwise: as much as
    /// SQLite's default build allows (2 GiB less 64 KiB), so a store of a million records is
    /// read through the map, not through `pread` (page 50 of a two-sort query at 1M: 44 ms
    /// with 128 MiB, 33 ms mapped whole). The writer maps at most 128 MiB.
    public static let defaultMemoryMapBytes = 2_147_418_112

    /// The schema of another store file, read without opening it as a store: nothing in it is
    /// written (no upgrade, no WAL switch), so comparing with, say, the production store leaves
    /// that file as it was.
    ///
    /// - Throws: `badDatabase` for a file that is not a Stratus store, `incompatibleVersion`
    ///   for one made by another version of Stratus (open it once with this one first).
    public static func exportSchema(ofStoreAt path: String) throws -> SchemaDocument {
        try SQLiteStoreFile.readWithoutOpening(path: path) { db in try Store.exportSchema(in: db.store) }
    }

    /// The SQLite file under a store this module opened, for tests and tools that look at it.
    package var file: SQLiteStoreFile {
        guard let file = backend as? SQLiteStoreFile else { preconditionFailure("the store at \(path) is not an SQLite file") }
        return file
    }
}
