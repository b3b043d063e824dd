import GRDB

/// SQLite's own check of the file: "ok" when every page and index is sound.
func integrityCheck(_ path: String) throws -> String {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(10)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
        try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
    }
}

/// Runs SQL on a file through a plain GRDB queue (not a store): to damage or inspect it.
func withGRDBQueue(_ path: String, _ body: (_ execute: (String) throws -> Void) throws -> Void) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    try queue.writeWithoutTransaction { db in
        try body { sql in try db.execute(sql: sql) }
    }
}
