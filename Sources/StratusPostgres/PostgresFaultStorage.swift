import Foundation
import StratusCloud
import StratusEngine

/// The fault plan and its log in a PostgreSQL store, in the SQLite store's columns.
struct PostgresFaultStorage: FaultStorage {
    /// How many of the newest firings the log keeps (about).
    static let keptEvents: Int64 = 1_000

    let db: PostgresTransaction

    private static let columns = """
        id, kind, scope, zone, operation, records, token, trigger, trigger_n, probability, seed, retry_after, item_limit, other_fields, clients,
        seen, fired, last_fired_at, created_at
        """

    func insert(_ fault: Fault) throws -> Int64 {
        let (name, n, probability, seed) = fault.trigger.columns
        return try db.link.integer("""
            INSERT INTO fault (kind, scope, zone, operation, records, token, trigger, trigger_n, probability, seed, retry_after, item_limit,
                               other_fields, clients, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id
            """, [fault.kind.rawValue, fault.scope?.rawValue, fault.zoneName, fault.operation?.rawValue, fault.recordNames.joined(separator: "\n"),
                  fault.token, name, n, probability, seed, fault.retryAfter, fault.itemLimit, fault.otherDeviceFields,
                  FaultClient.text(fault.clients), Self.milliseconds(fault.created)]) ?? 0
    }

    func all(activeOnly: Bool) throws -> [Fault] {
        try db.link.rows("SELECT \(Self.columns) FROM fault \(activeOnly ? "WHERE NOT spent" : "") ORDER BY id").compactMap(Self.fault)
    }

    /// Whether the plan holds an armed fault, as a boolean SQL expression (a reader's opening
    /// statement asks it too).
    static let armedExpression = "EXISTS (SELECT 1 FROM fault WHERE NOT spent)"

    func anyArmed() throws -> Bool {
        if let facts = try db.openingFacts() { return facts.faultsArmed }
        return try db.link.rows("SELECT \(Self.armedExpression)").first?.bool(0) ?? false
    }

    func saveCounts(_ fault: Fault) throws {
        try db.link.run("UPDATE fault SET seen = $1, fired = $2, spent = $3, last_fired_at = $4 WHERE id = $5",
                        [fault.seen, fault.fired, fault.isSpent, fault.lastFired.map(Self.milliseconds), fault.id])
    }

    func logFiring(_ fault: Fault, call: FaultCall, message: String) throws {
        let id = try db.link.integer("""
            INSERT INTO fault_event (fault_id, time, kind, operation, database, zone, message) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """, [fault.id, Self.milliseconds(Date()), fault.kind.rawValue, call.operation.rawValue, call.scope.name, call.zoneNames.sorted().first,
                  message]) ?? 0
        if id % 100 == 0 { try db.link.run("DELETE FROM fault_event WHERE id <= $1", [id - Self.keptEvents]) }
        db.announce(.faultEvents)
    }

    func events(after id: Int64?, limit: Int) throws -> [FaultEvent] {
        let columns = "id, fault_id, time, kind, operation, database, zone, message"
        let rows = if let id {
            try db.link.rows("SELECT \(columns) FROM fault_event WHERE id > $1 ORDER BY id LIMIT $2", [id, limit])
        } else {
            try db.link.rows("SELECT * FROM (SELECT \(columns) FROM fault_event ORDER BY id DESC LIMIT $1) AS newest ORDER BY id", [limit])
        }
        return try rows.map { row in
            FaultEvent(id: try row.int(0), faultID: try row.int(1), time: Date(timeIntervalSince1970: Double(try row.int(2)) / 1000),
                       kind: FaultKind(rawValue: try row.string(3)) ?? .serviceUnavailable, operation: FaultOperation(rawValue: try row.string(4)) ?? .modify,
                       database: try row.string(5), zoneName: try row.optionalString(6), message: try row.string(7))
        }
    }

    func remove(id: Int64?) throws -> Int {
        if let id { return try db.link.run("DELETE FROM fault WHERE id = $1", [id]) }
        let removed = try db.link.run("DELETE FROM fault")
        try db.link.run("DELETE FROM fault_event")
        return removed
    }

    private static func fault(_ row: PostgresRowReader) throws -> Fault? {
        guard let kind = FaultKind(rawValue: try row.string(1)) else { return nil }
        let trigger = FaultTrigger(name: try row.string(7), n: Int(try row.int(8)), probability: try row.double(9), seed: try row.optionalInt(10))
        let records = try row.string(5)
        return Fault(id: try row.int(0), kind: kind, scope: try row.optionalInt(2).flatMap { DatabaseScope(rawValue: Int($0)) },
                     zoneName: try row.optionalString(3), operation: try row.optionalString(4).flatMap(FaultOperation.init(rawValue:)),
                     recordNames: records.isEmpty ? [] : records.components(separatedBy: "\n"), token: try row.optionalString(6), trigger: trigger,
                     retryAfter: try row.double(11), itemLimit: try row.optionalInt(12).map { Int($0) }, otherDeviceFields: try row.optionalString(13),
                     clients: (try? FaultClient.parse(try row.string(14)).get()) ?? FaultClient.byDefault,
                     seen: Int(try row.int(15)), fired: Int(try row.int(16)),
                     lastFired: try row.optionalInt(17).map { Date(timeIntervalSince1970: Double($0) / 1000) },
                     created: Date(timeIntervalSince1970: Double(try row.int(18)) / 1000))
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
