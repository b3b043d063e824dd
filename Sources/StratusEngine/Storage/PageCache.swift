import GRDB

/// The writer connection's page cache for bulk writes (imports, filling a store).
enum PageCache {
    /// 256 MB (SQLite's default is 2 MB).
    static let bulkKiB = 262_144

    /// Index rows land all over large B-trees: a large cache keeps their pages in memory between
    /// batches instead of re-reading them from the OS, and lets a transaction hold its dirty
    /// pages until it commits rather than spilling them to the log early. Kept for the
    /// connection's life (it is the store's one writer).
    static func enlarge(_ db: StoreTransaction) throws {
        if try Int.fetchOne(db.sqlite, sql: "PRAGMA cache_size") ?? 0 > -bulkKiB {
            try db.sqlite.execute(sql: "PRAGMA cache_size = -\(bulkKiB)")
        }
    }
}
