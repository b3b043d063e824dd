import Foundation
import StratusCloud
import StratusEngine

/// Shares and their participants in a PostgreSQL store. An ended share keeps its rows
/// (participants removed) so participants' database changes can report the zone leaving.
struct PostgresShareStorage: ShareStorage {
    let db: PostgresTransaction

    private static let columns = "s.id, s.zone_id, s.record_name, s.root_name, s.short_guid, s.public_permission"
    private static let participantColumns = "share_id, user_name, type, permission, status, db_seq"

    func live(shortGUID: String) throws -> ShareRows.ShareRow? {
        try shares("WHERE s.live AND s.short_guid = $1 ORDER BY s.id", [shortGUID]).first
    }

    func live(zoneRowID: Int64) throws -> [ShareRows.ShareRow] {
        try shares("WHERE s.live AND s.zone_id = $1 ORDER BY s.id", [zoneRowID])
    }

    func participants(of shareID: Int64) throws -> [ShareRows.ParticipantRow] {
        try db.link.rows("SELECT \(Self.participantColumns) FROM share_participant WHERE share_id = $1 ORDER BY type, user_name", [shareID])
            .map(Self.participant)
    }

    func owned(by owner: String) throws -> [ShareRows.ShareRow] {
        try shares("""
            JOIN zone z ON z.id = s.zone_id WHERE s.live AND z.owner = $1 AND z.scope = $2 ORDER BY z.name, coalesce(s.root_name, '')
            """, [owner, DatabaseScope.private.rawValue])
    }

    func accepted(by user: String) throws -> [ShareRows.ShareRow] {
        try shares("""
            JOIN share_participant p ON p.share_id = s.id
            WHERE s.live AND p.user_name = $1 AND p.status = $2 AND p.type <> $3 ORDER BY s.id
            """, [user, ParticipantStatus.accepted.rawValue, ParticipantType.owner.rawValue])
    }

    func zoneAccess(user: String) throws -> [ShareRows.ZoneAccess] {
        let zoneColumns = PostgresZoneStorage.columns.split(separator: ",").map { "z." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        return try db.link.rows("""
            SELECT \(zoneColumns), p.status, s.live, p.db_seq FROM share s
            JOIN share_participant p ON p.share_id = s.id JOIN zone z ON z.id = s.zone_id
            WHERE p.user_name = $1 AND p.type <> $2 AND p.status IN ($3, $4) ORDER BY s.id
            """, [user, ParticipantType.owner.rawValue, ParticipantStatus.accepted.rawValue, ParticipantStatus.removed.rawValue]).map { row in
            ShareRows.ZoneAccess(zone: try PostgresZoneStorage.zone(row), status: ParticipantStatus(rawValue: Int(try row.int(9))),
                                 shareIsLive: try row.bool(10), accessSequence: try row.int(11))
        }
    }

    func grants(zoneRowID: Int64, user: String) throws -> [ShareRows.Grant] {
        try db.link.rows("""
            SELECT s.id, s.record_name, s.root_name, p.permission FROM share s JOIN share_participant p ON p.share_id = s.id
            WHERE s.live AND s.zone_id = $1 AND p.user_name = $2 AND p.status = $3 AND p.type <> $4 ORDER BY s.id
            """, [zoneRowID, user, ParticipantStatus.accepted.rawValue, ParticipantType.owner.rawValue]).map { row in
            ShareRows.Grant(shareID: try row.int(0), shareRecordName: try row.string(1), rootName: try row.optionalString(2),
                            permission: SharePermission(rawValue: Int(try row.int(3))) ?? .readOnly)
        }
    }

    func acceptedUsers(zoneRowID: Int64) throws -> Set<String> {
        Set(try db.link.rows("""
            SELECT p.user_name FROM share s JOIN share_participant p ON p.share_id = s.id
            WHERE s.live AND s.zone_id = $1 AND p.status = $2 AND p.type <> $3
            """, [zoneRowID, ParticipantStatus.accepted.rawValue, ParticipantType.owner.rawValue]).map { try $0.string(0) })
    }

    func end(_ shareID: Int64, databaseSequence: Int64) throws {
        try db.link.run("UPDATE share SET live = false WHERE id = $1", [shareID])
        try db.link.run("UPDATE share_participant SET status = $1, db_seq = $2 WHERE share_id = $3 AND type <> $4 AND status <> $1",
                        [ParticipantStatus.removed.rawValue, databaseSequence, shareID, ParticipantType.owner.rawValue])
    }

    func insert(zoneRowID: Int64, recordName: String, rootName: String?, shortGUID: String, publicPermission: SharePermission, owner: String) throws {
        guard try live(zoneRowID: zoneRowID).allSatisfy({ $0.recordName != recordName }) else {
            throw CloudKitError(.constraintViolation, "The record '\(recordName)' is shared already.")
        }
        guard let id = try db.link.integer("""
            INSERT INTO share (zone_id, record_name, root_name, short_guid, public_permission) VALUES ($1, $2, $3, $4, $5) RETURNING id
            """, [zoneRowID, recordName, rootName, shortGUID, publicPermission.rawValue]) else { return }
        try put(ShareRows.ParticipantRow(shareID: id, user: owner, type: .owner, permission: .readWrite, status: .accepted, databaseSequence: 0))
    }

    func invite(_ user: String, to shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        if var participant = try participant(user, in: shareID) {
            participant.permission = permission
            participant.databaseSequence = databaseSequence
            if participant.status == .removed { participant.status = .invited }
            try put(participant)
        } else {
            try put(ShareRows.ParticipantRow(shareID: shareID, user: user, type: .privateUser, permission: permission, status: .invited,
                                             databaseSequence: databaseSequence))
        }
    }

    func join(_ user: String, publicShare shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        try put(ShareRows.ParticipantRow(shareID: shareID, user: user, type: .publicUser, permission: permission, status: .accepted,
                                         databaseSequence: databaseSequence))
    }

    func setStatus(_ status: ParticipantStatus, of user: String, in shareID: Int64, databaseSequence: Int64) throws {
        try db.link.run("UPDATE share_participant SET status = $1, db_seq = $2 WHERE share_id = $3 AND user_name = $4",
                        [status.rawValue, databaseSequence, shareID, user])
    }

    /// Going to `none` removes every participant but the owner; going public removes those still invited.
    func setPublicPermission(_ permission: SharePermission, of shareID: Int64, databaseSequence: Int64) throws {
        let removed = ParticipantStatus.removed.rawValue
        let chosen = permission == .none ? "status <> $1" : "status = \(ParticipantStatus.invited.rawValue)"
        try db.link.run("UPDATE share_participant SET status = $1, db_seq = $2 WHERE share_id = $3 AND type <> $4 AND \(chosen)",
                        [removed, databaseSequence, shareID, ParticipantType.owner.rawValue])
        try db.link.run("UPDATE share SET public_permission = $1 WHERE id = $2", [permission.rawValue, shareID])
    }

    func touching(zoneRowID: Int64, recordName name: String) throws -> [Int64] {
        try db.link.rows("SELECT id FROM share WHERE live AND zone_id = $1 AND (record_name = $2 OR root_name = $2) ORDER BY id", [zoneRowID, name])
            .map { try $0.int(0) }
    }

    func zoneIsShared(_ zoneRowID: Int64) throws -> Bool {
        try !db.link.rows("SELECT 1 FROM share WHERE live AND zone_id = $1 LIMIT 1", [zoneRowID]).isEmpty
    }

    private func shares(_ rest: String, _ binds: [any PostgresBinding]) throws -> [ShareRows.ShareRow] {
        try db.link.rows("SELECT \(Self.columns) FROM share s \(rest)", binds).map { row in
            ShareRows.ShareRow(id: try row.int(0), zoneRowID: try row.int(1), recordName: try row.string(2), rootName: try row.optionalString(3),
                               shortGUID: try row.string(4), publicPermission: SharePermission(rawValue: Int(try row.int(5))) ?? .none)
        }
    }

    private func participant(_ user: String, in shareID: Int64) throws -> ShareRows.ParticipantRow? {
        try db.link.rows("SELECT \(Self.participantColumns) FROM share_participant WHERE share_id = $1 AND user_name = $2", [shareID, user])
            .first.map(Self.participant)
    }

    private func put(_ participant: ShareRows.ParticipantRow) throws {
        try db.link.run("""
            INSERT INTO share_participant (share_id, user_name, type, permission, status, db_seq) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (share_id, user_name) DO UPDATE
                SET type = excluded.type, permission = excluded.permission, status = excluded.status, db_seq = excluded.db_seq
            """, [participant.shareID, participant.user, participant.type.rawValue, participant.permission.rawValue, participant.status.rawValue,
                  participant.databaseSequence])
    }

    private static func participant(_ row: PostgresRowReader) throws -> ShareRows.ParticipantRow {
        ShareRows.ParticipantRow(shareID: try row.int(0), user: try row.string(1), type: ParticipantType(rawValue: Int(try row.int(2))) ?? .privateUser,
                                 permission: SharePermission(rawValue: Int(try row.int(3))) ?? .readOnly,
                                 status: ParticipantStatus(rawValue: Int(try row.int(4))) ?? .invited, databaseSequence: try row.int(5))
    }
}
