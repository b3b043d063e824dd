import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The fault plan's tables: `fault` (the plan, with how often each fault saw and fired) and
/// `fault_event` (the newest firings, for `faults log` and the dashboard).
struct SQLiteFaultStorage: FaultStorage {
    let db: SQLiteTransaction

    static let keptEvents: Int64 = 1_000

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-faults") { db in
            try db.execute(sql: """
                CREATE TABLE fault (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    scope INTEGER,
                    zone TEXT,
                    operation TEXT,
                    records TEXT NOT NULL DEFAULT '',
                    token TEXT,
                    trigger TEXT NOT NULL,
                    trigger_n INTEGER NOT NULL DEFAULT 0,
                    probability REAL,
                    seed INTEGER,
                    retry_after REAL,
                    item_limit INTEGER,
                    other_fields TEXT,
                    seen INTEGER NOT NULL DEFAULT 0,
                    fired INTEGER NOT NULL DEFAULT 0,
                    spent INTEGER NOT NULL DEFAULT 0,
                    last_fired_at INTEGER,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE fault_event (
                    id INTEGER PRIMARY KEY,
                    fault_id INTEGER NOT NULL,
                    time INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    database TEXT NOT NULL,
                    zone TEXT,
                    message TEXT NOT NULL
                );
                """)
        }
    }

    /// The clients a fault reaches; faults made before clients existed keep reaching the server
    /// and the command line, as the default is.
    static func registerClients(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-fault-clients") { db in
            try db.execute(sql: "ALTER TABLE fault ADD COLUMN clients TEXT NOT NULL DEFAULT 'server,cli'")
        }
    }

    static let columns = "id, kind, scope, zone, operation, records, token, trigger, trigger_n, probability, seed, retry_after, item_limit, other_fields, clients, seen, fired, last_fired_at, created_at"

    func insert(_ fault: Fault) throws -> Int64 {
        let (name, n, probability, seed) = fault.trigger.columns
        try db.sqlite.execute(sql: """
            INSERT INTO fault (kind, scope, zone, operation, records, token, trigger, trigger_n, probability, seed, retry_after, item_limit, other_fields, clients, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [fault.kind.rawValue, fault.scope?.rawValue, fault.zoneName, fault.operation?.rawValue,
                             fault.recordNames.joined(separator: "\n"), fault.token, name, n, probability, seed,
                             fault.retryAfter, fault.itemLimit, fault.otherDeviceFields, FaultClient.text(fault.clients),
                             Self.milliseconds(fault.created)])
        return db.sqlite.lastInsertedRowID
    }

    func all(activeOnly: Bool) throws -> [Fault] {
        try Row.fetchAll(db.sqlite, sql: "SELECT \(Self.columns) FROM fault \(activeOnly ? "WHERE spent = 0" : "") ORDER BY id").compactMap(Self.fault(from:))
    }

    /// Whether any fault can still fire.
    func anyArmed() throws -> Bool {
        try Bool.fetchOne(db.sqlite, sql: "SELECT EXISTS (SELECT 1 FROM fault WHERE spent = 0)") ?? false
    }

    func saveCounts(_ fault: Fault) throws {
        try db.sqlite.execute(sql: "UPDATE fault SET seen = ?, fired = ?, spent = ?, last_fired_at = ? WHERE id = ?",
                       arguments: [fault.seen, fault.fired, fault.isSpent, fault.lastFired.map(Self.milliseconds), fault.id])
    }

    func logFiring(_ fault: Fault, call: FaultCall, message: String) throws {
        try db.sqlite.execute(sql: "INSERT INTO fault_event (fault_id, time, kind, operation, database, zone, message) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       arguments: [fault.id, Self.milliseconds(Date()), fault.kind.rawValue, call.operation.rawValue, call.scope.name,
                                   call.zoneNames.sorted().first, message])
        let id = db.sqlite.lastInsertedRowID
        if id % 100 == 0 { try db.sqlite.execute(sql: "DELETE FROM fault_event WHERE id <= ?", arguments: [id - Self.keptEvents]) }
    }

    func events(after id: Int64?, limit: Int) throws -> [FaultEvent] {
        let rows: [Row]
        if let id {
            rows = try Row.fetchAll(db.sqlite, sql: "SELECT id, fault_id, time, kind, operation, database, zone, message FROM fault_event WHERE id > ? ORDER BY id LIMIT ?",
                                    arguments: [id, limit])
        } else {
            rows = try Row.fetchAll(db.sqlite, sql: """
                SELECT * FROM (SELECT id, fault_id, time, kind, operation, database, zone, message FROM fault_event ORDER BY id DESC LIMIT ?) ORDER BY id
                """, arguments: [limit])
        }
        return rows.map { row in
            FaultEvent(id: row[0], faultID: row[1], time: Date(timeIntervalSince1970: Double(row[2] as Int64) / 1000),
                       kind: FaultKind(rawValue: row[3]) ?? .serviceUnavailable, operation: FaultOperation(rawValue: row[4]) ?? .modify,
                       database: row[5], zoneName: row[6], message: row[7])
        }
    }

    private static func fault(from row: Row) -> Fault? {
        guard let kind = FaultKind(rawValue: row["kind"]) else { return nil }
        let trigger = FaultTrigger(name: row["trigger"], n: row["trigger_n"], probability: row["probability"], seed: row["seed"])
        let records: String = row["records"]
        return Fault(id: row["id"], kind: kind, scope: (row["scope"] as Int?).flatMap(DatabaseScope.init(rawValue:)), zoneName: row["zone"],
                     operation: (row["operation"] as String?).flatMap(FaultOperation.init(rawValue:)),
                     recordNames: records.isEmpty ? [] : records.components(separatedBy: "\n"), token: row["token"], trigger: trigger,
                     retryAfter: row["retry_after"], itemLimit: row["item_limit"], otherDeviceFields: row["other_fields"],
                     clients: (try? FaultClient.parse(row["clients"]).get()) ?? FaultClient.byDefault,
                     seen: row["seen"], fired: row["fired"],
                     lastFired: (row["last_fired_at"] as Int64?).map { Date(timeIntervalSince1970: Double($0) / 1000) },
                     created: Date(timeIntervalSince1970: Double(row["created_at"] as Int64) / 1000))
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Removes one fault, or (nil) the whole plan and its log; returns how many faults went.
    func remove(id: Int64?) throws -> Int {
        if let id {
            try db.sqlite.execute(sql: "DELETE FROM fault WHERE id = ?", arguments: [id])
            return db.sqlite.changesCount
        }
        try db.sqlite.execute(sql: "DELETE FROM fault")
        let removed = db.sqlite.changesCount
        try db.sqlite.execute(sql: "DELETE FROM fault_event")
        return removed
    }
}
