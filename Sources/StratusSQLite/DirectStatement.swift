import Foundation
import GRDB
import GRDBSQLite
import StratusCloud
import StratusEngine
import StratusModel

/// A prepared GRDB statement run through SQLite's C API: values bound one by one, no
/// `StatementArguments` array of boxed `DatabaseValue`s per row.
///
/// The bulk write path runs a handful of statements millions of times; there GRDB's argument
/// boxing cost more than SQLite's own work. Everything else uses GRDB as usual. Errors come
/// out as GRDB's `DatabaseError`, so they are reported like any other.
struct DirectStatement {
    /// Held so the handle stays valid even if GRDB drops the statement from its cache.
    private let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }
    private let connection: SQLiteConnection

    init(_ sql: String, in db: GRDB.Database) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection!
    }

    /// A statement of literal SQL, held by the transaction (``HeldStatements``) after its first use.
    init(_ sql: StaticString, in db: SQLiteTransaction) throws {
        statement = try db.statements.statement(sql, in: db.sqlite)
        connection = db.sqlite.sqliteConnection!
    }

    /// SQLite copies bound text and blobs (`SQLITE_TRANSIENT`), so Swift buffers may go at once.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    private static let empty: [CChar] = [0]

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    func bind(_ index: Int32, _ value: String) {
        var text = value
        text.withUTF8 { bindText(index, $0) }
    }

    /// Binds UTF-8 `bytes` as text.
    func bind(_ index: Int32, utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { bindText(index, $0) }
    }

    /// Binds UTF-8 `bytes` as text (SQLite copies them).
    func bind(_ index: Int32, utf8 bytes: UnsafeBufferPointer<UInt8>) {
        bindText(index, bytes)
    }

    /// Binds UTF-8 `bytes` as text without SQLite copying them (`SQLITE_STATIC`): the caller
    /// keeps them where they are until this statement's next ``run()`` has returned, and binds
    /// the parameter again before any later run. A copy (a `malloc`, a `memcpy` and a `free`)
    /// was most of the cost of binding each of a bulk write's index rows.
    func bind(_ index: Int32, borrowing bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return bindText(index, bytes) }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(bytes.count), nil)
        }
    }

    private func bindText(_ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address, and a null pointer would bind NULL, not ''.
        if let base = bytes.baseAddress {
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(handle, index, $0, Int32(bytes.count), DirectStatement.transient)
            }
        } else {
            DirectStatement.empty.withUnsafeBufferPointer { _ = sqlite3_bind_text(handle, index, $0.baseAddress, 0, DirectStatement.transient) }
        }
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    func bind(_ index: Int32, _ value: Data) {
        value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                _ = sqlite3_bind_blob(handle, index, base, Int32(bytes.count), DirectStatement.transient)
            } else {
                // A zero-length blob, not NULL.
                _ = sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
    }

    /// Runs the statement with the values bound, then makes it ready for the next row.
    func run() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        sqlite3_reset(handle)
    }
}
