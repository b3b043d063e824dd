import GRDB
import StratusCloud

/// A `zone` row: a zone's identity, incarnation and change counters.
struct ZoneRow: Sendable {
    enum State: Int {
        case live = 0
        case deleted = 1
        case purged = 2
    }

    var id: Int64
    var scope: DatabaseScope
    /// The zone as the caller names it: a zone of your own private database has the owner
    /// `__defaultOwner__`; a zone shared with you has its owner's user record name.
    var zoneID: ZoneID
    /// The user record name in the row: the private database's owner (`__defaultOwner__` in
    /// the public database).
    var ownerRecordName: String
    var incarnation: Int64
    var changeSequence: Int64
    var databaseSequence: Int64
    var state: State
    /// The history before this sequence was compacted away: tokens older than it expire.
    var compactedSequence: Int64

    private static let columns = "id, scope, owner, name, incarnation, change_seq, db_seq, state, compacted_seq"

    init(row: Row) {
        id = row["id"]
        scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        zoneID = ZoneID(zoneName: row["name"], ownerName: row["owner"])
        ownerRecordName = row["owner"]
        incarnation = row["incarnation"]
        changeSequence = row["change_seq"]
        databaseSequence = row["db_seq"]
        state = State(rawValue: row["state"]) ?? .live
        compactedSequence = row["compacted_seq"]
    }

    /// The zone with this ID in `scope`, live or not.
    static func find(_ zoneID: ZoneID, scope: DatabaseScope, in db: StoreTransaction) throws -> ZoneRow? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT \(columns) FROM zone WHERE scope = ? AND owner = ? AND name = ?"),
                         arguments: [scope.rawValue, zoneID.ownerName, zoneID.zoneName]).map(ZoneRow.init)
    }

    static func find(id: Int64, in db: StoreTransaction) throws -> ZoneRow? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT \(columns) FROM zone WHERE id = ?"), arguments: [id]).map(ZoneRow.init)
    }

    /// The live zone with this ID, or `zoneNotFound`.
    static func live(_ zoneID: ZoneID, scope: DatabaseScope, in db: StoreTransaction) throws -> ZoneRow {
        guard let zone = try find(zoneID, scope: scope, in: db), zone.state == .live else {
            throw CloudKitError(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist in the \(scope.name) database.",
                                reason: .zoneNotFound(zoneName: zoneID.zoneName, database: scope))
        }
        return zone
    }

    /// The live zones of `owner` in `scope`, the default zone first.
    static func all(scope: DatabaseScope, owner: String, in db: StoreTransaction) throws -> [ZoneRow] {
        try Row.fetchAll(db.sqlite, sql: "SELECT \(columns) FROM zone WHERE scope = ? AND owner = ? AND state = 0 ORDER BY name = '_defaultZone' DESC, name",
                         arguments: [scope.rawValue, owner]).map(ZoneRow.init)
    }

    /// Zones of `owner` whose database sequence is past `sequence`, oldest change first.
    static func changed(scope: DatabaseScope, owner: String, after sequence: Int64, limit: Int, in db: StoreTransaction) throws -> [ZoneRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: "SELECT \(columns) FROM zone WHERE scope = ? AND owner = ? AND db_seq > ? AND name <> '_defaultZone' ORDER BY db_seq LIMIT ?"),
                         arguments: [scope.rawValue, owner, sequence, limit]).map(ZoneRow.init)
    }

    /// The zone as `zoneID` names it for its viewer.
    func named(_ zoneID: ZoneID) -> ZoneRow {
        var copy = self
        copy.zoneID = zoneID
        return copy
    }

    /// Where the zone's change feed and the database's feed stand after a write to the zone.
    static func setSequences(zoneRowID: Int64, change: Int64, database: Int64, in db: StoreTransaction) throws {
        try db.sqlite.cachedStatement(sql: "UPDATE zone SET change_seq = ?, db_seq = ? WHERE id = ?").execute(arguments: [change, database, zoneRowID])
    }

    static func hasTombstones(zoneRowID: Int64, in db: StoreTransaction) throws -> Bool {
        try Bool.fetchOne(db.sqlite, sql: "SELECT EXISTS (SELECT 1 FROM tombstone WHERE zone_id = ?)", arguments: [zoneRowID]) ?? true
    }

    /// Marks a zone deleted or purged at this position of the database's change feed.
    static func setState(_ state: State, databaseSequence: Int64, zoneRowID: Int64, in db: StoreTransaction) throws {
        try db.sqlite.execute(sql: "UPDATE zone SET state = ?, db_seq = ? WHERE id = ?", arguments: [state.rawValue, databaseSequence, zoneRowID])
    }

    /// Forgets the zone's deletions up to `point` and moves its history's start there; returns
    /// how many deletions were dropped.
    static func compact(zoneRowID: Int64, through point: Int64, in db: StoreTransaction) throws -> Int {
        try db.sqlite.execute(sql: "DELETE FROM tombstone WHERE zone_id = ? AND seq <= ?", arguments: [zoneRowID, point])
        let dropped = db.sqlite.changesCount
        try db.sqlite.execute(sql: "UPDATE zone SET compacted_seq = ? WHERE id = ?", arguments: [point, zoneRowID])
        return dropped
    }
}
