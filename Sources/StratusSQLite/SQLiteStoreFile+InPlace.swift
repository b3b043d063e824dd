import GRDB
import StratusCloud
import StratusEngine
import StratusModel

extension SQLiteStoreFile {
    /// Runs `body`, a bulk write that begins and commits its own transactions, with its pages
    /// written straight into the file under a rollback journal when the store holds no records
    /// (but its users') and no other connection has it open; otherwise through the write-ahead
    /// log, as always.
    ///
    /// Why: a transaction of a million records grows the log to the store's size, and the
    /// checkpoint then copies every page again into the file: twice the bytes, and a fresh
    /// gigabyte of page cache for the kernel to zero. A store without records has no readers
    /// to keep going, and its rollback journal holds only the few pages it had. Commits sync
    /// fully meanwhile (`synchronous = FULL`): a committed import is as durable as under the log.
    ///
    /// While `body` runs, another process opening the store waits a few seconds, then is told
    /// an import is filling it; one that had it open already keeps the write on the log.
    /// Afterwards the store is in WAL mode again, whatever `body` did; if this process dies
    /// first, the next open rolls back the transaction under way and turns WAL mode back on.
    ///
    /// `body` is told whether the pages go in place.
    package func writingInPlaceWhenEmpty<T>(_ body: (_ inPlace: Bool) throws -> T) throws -> T {
        let saved = try enterRollbackJournal()
        defer { if let saved { leaveRollbackJournal(saved) } }
        return try body(saved != nil)
    }

    /// The writer's settings that writing in place changes, to put back.
    private struct SavedSettings {
        var synchronous: Int
        var busyTimeout: Int
    }

    /// Takes the writer out of WAL mode when the store is empty and this is the only connection;
    /// nil when it stays in WAL mode.
    private func enterRollbackJournal() throws -> SavedSettings? {
        guard readOnly == nil, try described({ try pool.write(SQLiteStoreFile.holdsOnlyUsers) }) else { return nil }
        // This process's idle readers hold the file open in WAL mode too: closed here (the next
        // read opens a new one), after the reads under way finish. Only for a store about to be
        // filled in place: any other keeps its readers.
        pool.releaseMemory()
        return try described {
            try pool.writeWithoutTransaction { db -> SavedSettings? in
                let saved = SavedSettings(synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 1,
                                          busyTimeout: try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0)
                // Leaving WAL mode needs the file to itself: when another connection has it open,
                // give up at once rather than after the busy wait.
                try db.execute(sql: "PRAGMA busy_timeout = 0")
                defer { try? db.execute(sql: "PRAGMA busy_timeout = \(saved.busyTimeout)") }
                do {
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete" else { return nil }
                } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
                    return nil
                }
                // A record written by another process between the first look and the switch:
                // that store has readers to keep going.
                guard try SQLiteStoreFile.holdsOnlyUsers(db) else {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    return nil
                }
                try db.execute(sql: "PRAGMA synchronous = FULL")
                return saved
            }
        }
    }

    /// Whether the store holds no records but its users' `Users` records (a new store has its
    /// owner's).
    private static func holdsOnlyUsers(_ db: GRDB.Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM record WHERE type_id NOT IN (SELECT id FROM record_type WHERE name = 'Users'))
            """) ?? false
    }

    /// Puts the writer back in WAL mode with its settings. Should that fail, the store stays in
    /// rollback mode until the next open, which turns WAL mode on; nothing is lost either way.
    private func leaveRollbackJournal(_ saved: SavedSettings) {
        _ = try? pool.writeWithoutTransaction { db in
            if db.isInsideTransaction { try db.rollback() }
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(saved.synchronous)")
        }
    }
}
