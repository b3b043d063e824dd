import StratusCloud
import StratusEngine
import StratusModel

/// Zones and each database's change sequence in a PostgreSQL store. In a write transaction a
/// zone is read `FOR UPDATE`: the zone row is the per-zone counter, so the writers of one zone
/// take turns from their first read of it to their commit and its sequence follows commit order.
struct PostgresZoneStorage: ZoneStorage {
    let db: PostgresTransaction

    private static let columnNames = ["id", "scope", "owner", "name", "incarnation", "change_seq", "db_seq", "state", "compacted_seq"]
    /// The columns ``zone(_:)`` reads, in its order.
    static let columns = columnNames.joined(separator: ", ")

    /// ``columns`` of the table named `alias` in a join.
    static func columns(of alias: String) -> String { columnNames.map { "\(alias).\($0)" }.joined(separator: ", ") }

    private var lock: String { db.isWriter ? " FOR UPDATE" : "" }

    func find(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow? {
        if let opened = try db.openedZone(zoneID, scope: scope) { return opened }
        return try db.link.rows("SELECT \(Self.columns) FROM zone WHERE scope = $1 AND owner = $2 AND name = $3\(lock)",
                         [scope.rawValue, zoneID.ownerName, zoneID.zoneName]).first.map(Self.zone)
    }

    func prefetch(_ zoneID: ZoneID, scope: DatabaseScope) {
        db.expect(zone: zoneID, scope: scope)
    }

    func find(id: Int64) throws -> ZoneRow? {
        try db.link.rows("SELECT \(Self.columns) FROM zone WHERE id = $1\(lock)", [id]).first.map(Self.zone)
    }

    func all(scope: DatabaseScope, owner: String) throws -> [ZoneRow] {
        try db.link.rows("""
            SELECT \(Self.columns) FROM zone WHERE scope = $1 AND owner = $2 AND state = 0 ORDER BY name = '_defaultZone' DESC, name
            """, [scope.rawValue, owner]).map(Self.zone)
    }

    func changed(scope: DatabaseScope, owner: String, after sequence: Int64, limit: Int) throws -> [ZoneRow] {
        try db.link.rows("""
            SELECT \(Self.columns) FROM zone WHERE scope = $1 AND owner = $2 AND db_seq > $3 AND name <> '_defaultZone' ORDER BY db_seq, id LIMIT $4
            """, [scope.rawValue, owner, sequence, limit]).map(Self.zone)
    }

    func setSequences(zoneRowID: Int64, change: Int64, database: Int64) throws {
        try db.link.run("UPDATE zone SET change_seq = $1, db_seq = $2 WHERE id = $3", [change, database, zoneRowID])
    }

    func hasTombstones(zoneRowID: Int64) throws -> Bool {
        try !db.link.rows("SELECT 1 FROM tombstone WHERE zone_id = $1 LIMIT 1", [zoneRowID]).isEmpty
    }

    func setState(_ state: ZoneRow.State, databaseSequence: Int64, zoneRowID: Int64) throws {
        try db.link.run("UPDATE zone SET state = $1, db_seq = $2 WHERE id = $3", [state.rawValue, databaseSequence, zoneRowID])
    }

    func compact(zoneRowID: Int64, through point: Int64) throws -> Int {
        let dropped = try db.link.run("DELETE FROM tombstone WHERE zone_id = $1 AND seq <= $2", [zoneRowID, point])
        try db.link.run("UPDATE zone SET compacted_seq = $1 WHERE id = $2", [point, zoneRowID])
        return dropped
    }

    @discardableResult
    func makeZone(_ zoneID: ZoneID, scope: DatabaseScope, sequenceScope: DatabaseScope) throws -> Bool {
        try makeZone(zoneID, scope: scope, sequenceScope: sequenceScope, revive: { existing, databaseSequence in
            try db.link.run("UPDATE zone SET state = 0, incarnation = incarnation + 1, change_seq = 0, compacted_seq = 0, db_seq = $1 WHERE id = $2",
                            [databaseSequence, existing.id])
        }, insert: { databaseSequence in
            try insertZone(zoneID, scope: scope, databaseSequence: databaseSequence)
        })
    }

    func databaseSequence(scope: DatabaseScope) throws -> Int64 {
        try db.link.integer("SELECT change_seq FROM database_state WHERE scope = $1", [scope.rawValue]) ?? 0
    }

    /// The database's counter row, locked to this transaction's commit: database change tokens
    /// follow commit order.
    func nextDatabaseSequence(scope: DatabaseScope) throws -> Int64 {
        try db.link.integer("UPDATE database_state SET change_seq = change_seq + 1 WHERE scope = $1 RETURNING change_seq", [scope.rawValue]) ?? 0
    }

    func eraseContents(zoneRowID: Int64, databaseSequence: Int64) throws {
        let shares = PostgresShareStorage(db: db)
        for share in try shares.live(zoneRowID: zoneRowID) {
            try shares.end(share.id, databaseSequence: databaseSequence)
        }
        try db.flushFieldRows()
        for table in ["tombstone", "field_value", "record"] {
            try db.link.run("DELETE FROM \(table) WHERE zone_id = $1", [zoneRowID])
        }
    }

    /// Adds a zone (none of that ID may exist) at `databaseSequence`.
    func insertZone(_ zoneID: ZoneID, scope: DatabaseScope, databaseSequence: Int64) throws {
        try db.link.run("INSERT INTO zone (scope, owner, name, db_seq) VALUES ($1, $2, $3, $4)",
                        [scope.rawValue, zoneID.ownerName, zoneID.zoneName, databaseSequence])
    }

    static func zone(_ row: PostgresRowReader) throws -> ZoneRow {
        let owner = try row.string(2)
        return ZoneRow(id: try row.int(0), scope: DatabaseScope(rawValue: Int(try row.int(1))) ?? .private,
                       zoneID: ZoneID(zoneName: try row.string(3), ownerName: owner), ownerRecordName: owner, incarnation: try row.int(4),
                       changeSequence: try row.int(5), databaseSequence: try row.int(6), state: ZoneRow.State(rawValue: Int(try row.int(7))) ?? .live,
                       compactedSequence: try row.int(8))
    }
}
