import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// Zones and the database change sequences in the `zone` and `database_state` tables.
struct SQLiteZoneStorage: ZoneStorage {
    let db: SQLiteTransaction

    static let columns = "id, scope, owner, name, incarnation, change_seq, db_seq, state, compacted_seq"

    /// The zone with this ID in `scope`, live or not.
    func find(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT \(Self.columns) FROM zone WHERE scope = ? AND owner = ? AND name = ?"),
                         arguments: [scope.rawValue, zoneID.ownerName, zoneID.zoneName]).map(ZoneRow.init(row:))
    }

    func find(id: Int64) throws -> ZoneRow? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT \(Self.columns) FROM zone WHERE id = ?"), arguments: [id]).map(ZoneRow.init(row:))
    }

    /// The live zones of `owner` in `scope`, the default zone first.
    func all(scope: DatabaseScope, owner: String) throws -> [ZoneRow] {
        try Row.fetchAll(db.sqlite, sql: "SELECT \(Self.columns) FROM zone WHERE scope = ? AND owner = ? AND state = 0 ORDER BY name = '_defaultZone' DESC, name",
                         arguments: [scope.rawValue, owner]).map(ZoneRow.init(row:))
    }

    /// Zones of `owner` whose database sequence is past `sequence`, oldest change first.
    func changed(scope: DatabaseScope, owner: String, after sequence: Int64, limit: Int) throws -> [ZoneRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: "SELECT \(Self.columns) FROM zone WHERE scope = ? AND owner = ? AND db_seq > ? AND name <> '_defaultZone' ORDER BY db_seq LIMIT ?"),
                         arguments: [scope.rawValue, owner, sequence, limit]).map(ZoneRow.init(row:))
    }

    /// Where the zone's change feed and the database's feed stand after a write to the zone.
    func setSequences(zoneRowID: Int64, change: Int64, database: Int64) throws {
        try db.sqlite.cachedStatement(sql: "UPDATE zone SET change_seq = ?, db_seq = ? WHERE id = ?").execute(arguments: [change, database, zoneRowID])
    }

    func hasTombstones(zoneRowID: Int64) throws -> Bool {
        try Bool.fetchOne(db.sqlite, sql: "SELECT EXISTS (SELECT 1 FROM tombstone WHERE zone_id = ?)", arguments: [zoneRowID]) ?? true
    }

    /// Marks a zone deleted or purged at this position of the database's change feed.
    func setState(_ state: ZoneRow.State, databaseSequence: Int64, zoneRowID: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE zone SET state = ?, db_seq = ? WHERE id = ?", arguments: [state.rawValue, databaseSequence, zoneRowID])
    }

    /// Forgets the zone's deletions up to `point` and moves its history's start there; returns
    /// how many deletions were dropped.
    func compact(zoneRowID: Int64, through point: Int64) throws -> Int {
        try db.sqlite.execute(sql: "DELETE FROM tombstone WHERE zone_id = ? AND seq <= ?", arguments: [zoneRowID, point])
        let dropped = db.sqlite.changesCount
        try db.sqlite.execute(sql: "UPDATE zone SET compacted_seq = ? WHERE id = ?", arguments: [point, zoneRowID])
        return dropped
    }

    /// Makes a custom zone, or brings a deleted one back as a new incarnation (old tokens then
    /// expire); a live zone stays as it is. Returns whether it made or revived one.
    @discardableResult
    func makeZone(_ zoneID: ZoneID, scope: DatabaseScope, sequenceScope: DatabaseScope) throws -> Bool {
        try makeZone(zoneID, scope: scope, sequenceScope: sequenceScope, revive: { existing, databaseSequence in
            try db.sqlite.execute(sql: "UPDATE zone SET state = 0, incarnation = incarnation + 1, change_seq = 0, compacted_seq = 0, db_seq = ? WHERE id = ?",
                           arguments: [databaseSequence, existing.id])
        }, insert: { databaseSequence in
            try db.sqlite.execute(sql: "INSERT INTO zone (scope, owner, name, db_seq) VALUES (?, ?, ?, ?)",
                           arguments: [scope.rawValue, zoneID.ownerName, zoneID.zoneName, databaseSequence])
        })
    }

    /// Where the feed of `scope` stands now.
    func databaseSequence(scope: DatabaseScope) throws -> Int64 {
        try Int64.fetchOne(db.sqlite.cachedStatement(sql: "SELECT change_seq FROM database_state WHERE scope = ?"), arguments: [scope.rawValue]) ?? 0
    }

    /// Moves the feed of `scope` on by one and returns the new position.
    func nextDatabaseSequence(scope: DatabaseScope) throws -> Int64 {
        try db.sqlite.cachedStatement(sql: "UPDATE database_state SET change_seq = change_seq + 1 WHERE scope = ?").execute(arguments: [scope.rawValue])
        return try databaseSequence(scope: scope)
    }

    /// Erases the zone's contents and ends its shares (`databaseSequence` orders their
    /// participants' loss of access in their shared databases).
    func eraseContents(zoneRowID: Int64, databaseSequence: Int64) throws {
        for share in try db.shares.live(zoneRowID: zoneRowID) {
            try db.shares.end(share.id, databaseSequence: databaseSequence)
        }
        try db.sqlite.execute(sql: "DELETE FROM record_text WHERE rowid IN (SELECT id FROM record WHERE zone_id = ?)", arguments: [zoneRowID])
        for table in ["field_value", "reference_edge", "tombstone", "record"] {
            try db.sqlite.execute(sql: "DELETE FROM \(table) WHERE zone_id = ?", arguments: [zoneRowID])
        }
    }
}

extension ZoneRow {
    /// The zone a `zone` row holds.
    init(row: Row) {
        self.init(id: row["id"], scope: DatabaseScope(rawValue: row["scope"]) ?? .private, zoneID: ZoneID(zoneName: row["name"], ownerName: row["owner"]), ownerRecordName: row["owner"], incarnation: row["incarnation"], changeSequence: row["change_seq"], databaseSequence: row["db_seq"], state: State(rawValue: row["state"]) ?? .live, compactedSequence: row["compacted_seq"])
    }
}
