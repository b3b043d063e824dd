import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// Shares and their participants in the `share` and `share_participant` tables. A deleted share
/// keeps its rows (state 1, participants removed) so participants' database changes can report
/// the zone leaving their shared database.
struct SQLiteShareStorage: ShareStorage {
    let db: SQLiteTransaction

    static let shareColumns = "id, zone_id, record_name, root_name, short_guid, public_permission"
    /// The share columns read through the alias `s`, for queries that join another table.
    private static let joinedShareColumns = "s.id, s.zone_id, s.record_name, s.root_name, s.short_guid, s.public_permission"

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-sharing") { db in
            try db.execute(sql: """
                CREATE TABLE share (
                    id INTEGER PRIMARY KEY,
                    zone_id INTEGER NOT NULL,
                    record_name TEXT NOT NULL,
                    root_name TEXT,
                    short_guid TEXT NOT NULL,
                    public_permission INTEGER NOT NULL DEFAULT 1,
                    state INTEGER NOT NULL DEFAULT 0
                );
                CREATE UNIQUE INDEX share_live_record ON share (zone_id, record_name) WHERE state = 0;
                CREATE INDEX share_by_guid ON share (short_guid);
                CREATE TABLE share_participant (
                    share_id INTEGER NOT NULL,
                    user TEXT NOT NULL,
                    type INTEGER NOT NULL,
                    permission INTEGER NOT NULL,
                    status INTEGER NOT NULL,
                    db_seq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (share_id, user)
                ) WITHOUT ROWID;
                CREATE INDEX share_participant_by_user ON share_participant (user, status);
                """)
        }
    }

    func live(shortGUID: String) throws -> ShareRows.ShareRow? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT \(Self.shareColumns) FROM share WHERE short_guid = ? AND state = 0"), arguments: [shortGUID]).map(ShareRows.ShareRow.init(row:))
    }

    func live(zoneRowID: Int64) throws -> [ShareRows.ShareRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: "SELECT \(Self.shareColumns) FROM share WHERE zone_id = ? AND state = 0 ORDER BY id"),
                         arguments: [zoneRowID]).map(ShareRows.ShareRow.init(row:))
    }

    func participants(of shareID: Int64) throws -> [ShareRows.ParticipantRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: "SELECT * FROM share_participant WHERE share_id = ? ORDER BY type, user"), arguments: [shareID]).map(ShareRows.ParticipantRow.init(row:))
    }

    /// The live shares of `owner`'s private zones, by zone name, then root.
    func owned(by owner: String) throws -> [ShareRows.ShareRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: """
            SELECT \(Self.joinedShareColumns) FROM share s JOIN zone z ON z.id = s.zone_id
            WHERE s.state = 0 AND z.owner = ? AND z.scope = ? ORDER BY z.name, s.root_name
            """), arguments: [owner, DatabaseScope.private.rawValue]).map(ShareRows.ShareRow.init(row:))
    }

    /// The live shares `user` has accepted (not as their owner), oldest first.
    func accepted(by user: String) throws -> [ShareRows.ShareRow] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: """
            SELECT \(Self.joinedShareColumns) FROM share s JOIN share_participant p ON p.share_id = s.id
            WHERE s.state = 0 AND p.user = ? AND p.status = 2 AND p.type <> 1 ORDER BY s.id
            """), arguments: [user]).map(ShareRows.ShareRow.init(row:))
    }

    /// One row per share `user` accepted or was removed from (owners left out), with its zone.
    func zoneAccess(user: String) throws -> [ShareRows.ZoneAccess] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: """
            SELECT z.id, z.scope, z.owner, z.name, z.incarnation, z.change_seq, z.db_seq, z.state, z.compacted_seq,
                   p.status, p.db_seq AS access_seq, s.state AS share_state
            FROM share_participant p JOIN share s ON s.id = p.share_id JOIN zone z ON z.id = s.zone_id
            WHERE p.user = ? AND p.type <> 1 AND p.status IN (2, 3)
            """), arguments: [user]).map { row in
            ShareRows.ZoneAccess(zone: ZoneRow(row: row), status: ParticipantStatus(rawValue: row["status"]), shareIsLive: (row["share_state"] as Int) == 0,
                       accessSequence: row["access_seq"])
        }
    }

    /// The live shares of a zone that `user` has accepted.
    func grants(zoneRowID: Int64, user: String) throws -> [ShareRows.Grant] {
        try Row.fetchAll(db.sqlite.cachedStatement(sql: """
            SELECT s.id, s.record_name, s.root_name, p.permission FROM share s JOIN share_participant p ON p.share_id = s.id
            WHERE s.zone_id = ? AND s.state = 0 AND p.user = ? AND p.status = 2 AND p.type <> 1
            """), arguments: [zoneRowID, user]).map { row in
            ShareRows.Grant(shareID: row[0], shareRecordName: row[1], rootName: row[2], permission: SharePermission(rawValue: row[3]) ?? .readOnly)
        }
    }

    /// Users who have accepted a live share of the zone (owners left out).
    func acceptedUsers(zoneRowID: Int64) throws -> Set<String> {
        Set(try String.fetchAll(db.sqlite.cachedStatement(sql: """
            SELECT DISTINCT p.user FROM share s JOIN share_participant p ON p.share_id = s.id
            WHERE s.zone_id = ? AND s.state = 0 AND p.status = 2 AND p.type <> 1
            """), arguments: [zoneRowID]))
    }

    /// Ends a share (its record or root was deleted, or its zone): participants are removed
    /// and their database changes will report the zone gone.
    func end(_ shareID: Int64, databaseSequence: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE share SET state = 1 WHERE id = ?", arguments: [shareID])
        try db.sqlite.execute(sql: "UPDATE share_participant SET status = 3, db_seq = ? WHERE share_id = ? AND type <> 1 AND status <> 3",
                       arguments: [databaseSequence, shareID])
    }

    /// A new share, with its owner as an accepted participant.
    func insert(zoneRowID: Int64, recordName: String, rootName: String?, shortGUID: String, publicPermission: SharePermission, owner: String) throws {
        try db.sqlite.execute(sql: "INSERT INTO share (zone_id, record_name, root_name, short_guid, public_permission) VALUES (?, ?, ?, ?, ?)",
                       arguments: [zoneRowID, recordName, rootName, shortGUID, publicPermission.rawValue])
        try db.sqlite.execute(sql: "INSERT INTO share_participant (share_id, user, type, permission, status) VALUES (?, ?, ?, ?, ?)",
                       arguments: [db.sqlite.lastInsertedRowID, owner, ParticipantType.owner.rawValue, SharePermission.readWrite.rawValue,
                                   ParticipantStatus.accepted.rawValue])
    }

    /// Invites a user (again): a removed participant is invited anew, one invited or accepted
    /// keeps that status with the new permission.
    func invite(_ user: String, to shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        try db.sqlite.execute(sql: """
            INSERT INTO share_participant (share_id, user, type, permission, status, db_seq) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (share_id, user) DO UPDATE SET permission = excluded.permission, db_seq = excluded.db_seq,
                status = CASE status WHEN \(ParticipantStatus.removed.rawValue) THEN \(ParticipantStatus.invited.rawValue) ELSE status END
            """, arguments: [shareID, user, ParticipantType.privateUser.rawValue, permission.rawValue,
                             ParticipantStatus.invited.rawValue, databaseSequence])
    }

    /// A user joins a public share through its URL, accepted at once with its public permission.
    func join(_ user: String, publicShare shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        try db.sqlite.execute(sql: """
            INSERT INTO share_participant (share_id, user, type, permission, status, db_seq) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (share_id, user) DO UPDATE SET type = excluded.type, permission = excluded.permission, status = excluded.status, db_seq = excluded.db_seq
            """, arguments: [shareID, user, ParticipantType.publicUser.rawValue, permission.rawValue,
                             ParticipantStatus.accepted.rawValue, databaseSequence])
    }

    func setStatus(_ status: ParticipantStatus, of user: String, in shareID: Int64, databaseSequence: Int64) throws {
        try db.sqlite.execute(sql: "UPDATE share_participant SET status = ?, db_seq = ? WHERE share_id = ? AND user = ?",
                       arguments: [status.rawValue, databaseSequence, shareID, user])
    }

    /// Changes who may join through the URL alone: going to `none` removes every participant
    /// but the owner, going public removes those still invited.
    func setPublicPermission(_ permission: SharePermission, of shareID: Int64, databaseSequence: Int64) throws {
        let removing = permission == .none ? "status <> 3" : "status = 1"
        try db.sqlite.execute(sql: "UPDATE share_participant SET status = 3, db_seq = ? WHERE share_id = ? AND type <> 1 AND \(removing)",
                       arguments: [databaseSequence, shareID])
        try db.sqlite.execute(sql: "UPDATE share SET public_permission = ? WHERE id = ?", arguments: [permission.rawValue, shareID])
    }

    /// The live shares whose share record or root record is `name` in the zone.
    func touching(zoneRowID: Int64, recordName name: String) throws -> [Int64] {
        try Int64.fetchAll(db.sqlite.cachedStatement(sql: "SELECT id FROM share WHERE zone_id = ? AND state = 0 AND (record_name = ? OR root_name = ?)"),
                           arguments: [zoneRowID, name, name])
    }

    /// Whether the zone has any live share (a cheap check the write path makes per zone).
    func zoneIsShared(_ zoneRowID: Int64) throws -> Bool {
        try Bool.fetchOne(db.sqlite.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM share WHERE zone_id = ? AND state = 0)"), arguments: [zoneRowID]) ?? false
    }
}

extension ShareRows.ShareRow {
    /// The share a `share` row holds.
    init(row: Row) {
        self.init(id: row["id"], zoneRowID: row["zone_id"], recordName: row["record_name"], rootName: row["root_name"], shortGUID: row["short_guid"], publicPermission: SharePermission(rawValue: row["public_permission"]) ?? .none)
    }
}

extension ShareRows.ParticipantRow {
    /// The participant a `share_participant` row holds.
    init(row: Row) {
        self.init(shareID: row["share_id"], user: row["user"], type: ParticipantType(rawValue: row["type"]) ?? .privateUser,
                  permission: SharePermission(rawValue: row["permission"]) ?? .readOnly,
                  status: ParticipantStatus(rawValue: row["status"]) ?? .invited, databaseSequence: row["db_seq"])
    }
}
