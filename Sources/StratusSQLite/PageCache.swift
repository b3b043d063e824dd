import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The writer connection's page cache for bulk writes (imports, filling a store).
public enum PageCache {
    /// 128 MB (SQLite's default is 2 MB), for bulk fills (``CloudDatabase/writeInBulk``, the
    /// demo): their transactions of 250,000 records change pages the last one wrote, and a
    /// cache that holds them saves writing them twice. Twice as much would keep a few more of
    /// them, but a million-record demo then peaks at 518 MB resident instead of 379 MB.
    static let bulkKiB = 131_072

    /// 32 MB, for imports. An import holds back its index rows and writes them sorted at the
    /// end, so its pages are written once whatever the cache; a cache that lets them go as
    /// they fill keeps memory low and spreads the writing over the import. A million
    /// exported records import in 19.6 s with a 327 MiB peak, against 21.3 s and 574 MiB with
    /// 256 MB. The bench's import floor uses the same cache.
    public static let importKiB = 32_768

    /// Raises the writer's cache to at least `kib` for a bulk write (see the two sizes above).
    /// Kept for the connection's life (it is the store's one writer); never made smaller here,
    /// so an import after a bulk fill on the same connection keeps the larger cache.
    static func enlarge(_ db: SQLiteTransaction, toKiB kib: Int = bulkKiB) throws {
        if try Int.fetchOne(db.sqlite, sql: "PRAGMA cache_size") ?? 0 > -kib {
            try db.sqlite.execute(sql: "PRAGMA cache_size = -\(kib)")
        }
    }
}
