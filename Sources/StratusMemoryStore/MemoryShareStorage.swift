import StratusCloud
import StratusEngine

/// Shares and their participants in a memory store's tables. An ended share keeps its rows
/// (participants removed) so participants' database changes can report the zone leaving.
struct MemoryShareStorage: ShareStorage {
    let db: MemoryTransaction

    func live(shortGUID: String) throws -> ShareRows.ShareRow? {
        liveShares().first { $0.shortGUID == shortGUID }
    }

    func live(zoneRowID: Int64) throws -> [ShareRows.ShareRow] {
        liveShares().filter { $0.zoneRowID == zoneRowID }
    }

    func participants(of shareID: Int64) throws -> [ShareRows.ParticipantRow] {
        (db.tables.participants[shareID]?.values).map { Array($0) }?
            .sorted { ($0.type.rawValue, $0.user) < ($1.type.rawValue, $1.user) } ?? []
    }

    func owned(by owner: String) throws -> [ShareRows.ShareRow] {
        liveShares().compactMap { share -> (String, ShareRows.ShareRow)? in
            guard let zone = db.tables.zones[share.zoneRowID], zone.key.owner == owner, zone.key.scope == .private else { return nil }
            return (zone.key.name, share)
        }.sorted { ($0.0, $0.1.rootName ?? "") < ($1.0, $1.1.rootName ?? "") }.map(\.1)
    }

    func accepted(by user: String) throws -> [ShareRows.ShareRow] {
        liveShares().filter { share in
            guard let participant = db.tables.participants[share.id]?[user] else { return false }
            return participant.status == .accepted && participant.type != .owner
        }
    }

    func zoneAccess(user: String) throws -> [ShareRows.ZoneAccess] {
        db.tables.shares.sorted { $0.key < $1.key }.compactMap { id, share in
            guard let participant = db.tables.participants[id]?[user], participant.type != .owner,
                  participant.status == .accepted || participant.status == .removed,
                  let zone = db.tables.zones[share.row.zoneRowID] else { return nil }
            return ShareRows.ZoneAccess(zone: zone.row, status: participant.status, shareIsLive: share.isLive, accessSequence: participant.databaseSequence)
        }
    }

    func grants(zoneRowID: Int64, user: String) throws -> [ShareRows.Grant] {
        try live(zoneRowID: zoneRowID).compactMap { share in
            guard let participant = db.tables.participants[share.id]?[user], participant.status == .accepted, participant.type != .owner else { return nil }
            return ShareRows.Grant(shareID: share.id, shareRecordName: share.recordName, rootName: share.rootName, permission: participant.permission)
        }
    }

    func acceptedUsers(zoneRowID: Int64) throws -> Set<String> {
        var users = Set<String>()
        for share in try live(zoneRowID: zoneRowID) {
            for participant in db.tables.participants[share.id]?.values ?? [:].values where participant.status == .accepted && participant.type != .owner {
                users.insert(participant.user)
            }
        }
        return users
    }

    func end(_ shareID: Int64, databaseSequence: Int64) throws {
        db.tables.shares[shareID]?.isLive = false
        updateParticipants(of: shareID, where: { $0.type != .owner && $0.status != .removed }) {
            $0.status = .removed
            $0.databaseSequence = databaseSequence
        }
    }

    func insert(zoneRowID: Int64, recordName: String, rootName: String?, shortGUID: String, publicPermission: SharePermission, owner: String) throws {
        guard try touching(zoneRowID: zoneRowID, recordName: recordName).allSatisfy({ db.tables.shares[$0]?.row.recordName != recordName }) else {
            throw CloudKitError(.constraintViolation, "The record '\(recordName)' is shared already.")
        }
        db.tables.lastShareID += 1
        let id = db.tables.lastShareID
        db.tables.shares[id] = MemoryTables.Share(row: ShareRows.ShareRow(id: id, zoneRowID: zoneRowID, recordName: recordName, rootName: rootName,
                                                                          shortGUID: shortGUID, publicPermission: publicPermission))
        db.tables.participants[id] = [owner: ShareRows.ParticipantRow(shareID: id, user: owner, type: .owner, permission: .readWrite, status: .accepted,
                                                                      databaseSequence: 0)]
    }

    func invite(_ user: String, to shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        if var participant = db.tables.participants[shareID]?[user] {
            participant.permission = permission
            participant.databaseSequence = databaseSequence
            if participant.status == .removed { participant.status = .invited }
            db.tables.participants[shareID]?[user] = participant
        } else {
            db.tables.participants[shareID, default: [:]][user] = ShareRows.ParticipantRow(
                shareID: shareID, user: user, type: .privateUser, permission: permission, status: .invited, databaseSequence: databaseSequence)
        }
    }

    func join(_ user: String, publicShare shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws {
        db.tables.participants[shareID, default: [:]][user] = ShareRows.ParticipantRow(
            shareID: shareID, user: user, type: .publicUser, permission: permission, status: .accepted, databaseSequence: databaseSequence)
    }

    func setStatus(_ status: ParticipantStatus, of user: String, in shareID: Int64, databaseSequence: Int64) throws {
        db.tables.participants[shareID]?[user]?.status = status
        db.tables.participants[shareID]?[user]?.databaseSequence = databaseSequence
    }

    func setPublicPermission(_ permission: SharePermission, of shareID: Int64, databaseSequence: Int64) throws {
        updateParticipants(of: shareID, where: { $0.type != .owner && (permission == .none ? $0.status != .removed : $0.status == .invited) }) {
            $0.status = .removed
            $0.databaseSequence = databaseSequence
        }
        db.tables.shares[shareID]?.row.publicPermission = permission
    }

    func touching(zoneRowID: Int64, recordName name: String) throws -> [Int64] {
        try live(zoneRowID: zoneRowID).filter { $0.recordName == name || $0.rootName == name }.map(\.id)
    }

    func zoneIsShared(_ zoneRowID: Int64) throws -> Bool {
        db.tables.shares.values.contains { $0.isLive && $0.row.zoneRowID == zoneRowID }
    }

    /// The live shares, oldest first.
    private func liveShares() -> [ShareRows.ShareRow] {
        db.tables.shares.filter(\.value.isLive).sorted { $0.key < $1.key }.map(\.value.row)
    }

    private func updateParticipants(of shareID: Int64, where chosen: (ShareRows.ParticipantRow) -> Bool,
                                    _ change: (inout ShareRows.ParticipantRow) -> Void) {
        guard var participants = db.tables.participants[shareID] else { return }
        for (user, participant) in participants where chosen(participant) { change(&participants[user]!) }
        db.tables.participants[shareID] = participants
    }
}
