import Foundation
import StratusModel
import StratusCloud

/// Reads shares into `Share` values as one user sees them (zone IDs named from their side).
struct ShareReader {
    let db: StoreTransaction
    /// The user record name of who looks.
    let viewer: String

    /// The live share with this URL (or short GUID), or `unknownItem`.
    static func liveShare(_ url: String, in db: StoreTransaction) throws -> ShareRows.ShareRow {
        let guid = Share.shortGUID(fromURL: url)
        guard !guid.isEmpty, let share = try db.shares.live(shortGUID: guid) else {
            throw CloudKitError(.unknownItem, "No share with URL '\(url)': share not found (it may have been deleted).")
        }
        return share
    }

    func share(shortGUID: String) throws -> Share {
        guard let row = try db.shares.live(shortGUID: shortGUID) else {
            throw CloudKitError(.unknownItem, "share not found")
        }
        return try share(row)
    }

    /// Shares the viewer owns (by zone, then root) and shares they accepted.
    func shares() throws -> (owned: [Share], accepted: [Share]) {
        let owned = try db.shares.owned(by: viewer)
        let accepted = try db.shares.accepted(by: viewer)
        return (try owned.map(share), try accepted.map(share))
    }

    private func share(_ row: ShareRows.ShareRow) throws -> Share {
        guard let zone = try db.zones.find(id: row.zoneRowID) else { throw CloudKitError(.unknownItem, "share not found") }
        let owner = zone.ownerRecordName
        let zoneID = ZoneID(zoneName: zone.zoneID.zoneName, ownerName: owner == viewer ? ZoneID.defaultOwnerName : owner)
        let aliases = try db.users.aliases()
        let participants = try db.shares.participants(of: row.id).map { participant in
            ShareParticipant(userRecordName: participant.user, alias: aliases[participant.user] ?? participant.user, type: participant.type,
                             permission: participant.permission, status: participant.status)
        }
        let title = try db.records.find(zoneRowID: zone.id, name: row.recordName)
            .flatMap { try $0.fields()["cloudkit.title"] }
            .flatMap { value -> String? in if case .string(let text) = value { return text } else { return nil } }
        return Share(recordID: RecordID(recordName: row.recordName, zoneID: zoneID), rootRecordName: row.rootName, ownerRecordName: owner,
                     ownerAlias: aliases[owner] ?? owner, shortGUID: row.shortGUID, publicPermission: row.publicPermission,
                     participants: participants, title: title)
    }

    /// Gives the share record a new change tag and change sequence: its participants changed,
    /// so the change feeds of the owner and the participants show it again.
    static func touchShareRecord(_ share: ShareRows.ShareRow, zone: ZoneRow, in db: StoreTransaction) throws {
        guard let current = try db.zones.find(id: zone.id) else { return }
        let sequence = current.changeSequence + 1
        // No field changed: its participants did.
        try db.records.touch(zoneRowID: zone.id, name: share.recordName, changeTag: ChangeTag.make(), sequence: sequence,
                                          modifiedAt: FieldValue.milliseconds(Date()))
        try db.zones.setSequences(zoneRowID: zone.id, change: sequence, database: try CloudDatabase.nextDatabaseSequence(scope: .private, in: db))
    }
}
