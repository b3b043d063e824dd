import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// The keys CKWS adds to records that take part in a share, so a share record reads the same
/// however it is fetched (`records/modify`, `lookup`, `query`, zone changes, `resolve`):
/// on the `cloudkit.share` record `publicPermission`, `participants`, `owner`,
/// `currentUserParticipant` and `shortGUID`; on a shared root, `share` (the share record's
/// name, as `CloudKit.Record.share` reads it) and `shortGUID`.
struct ShareKeys {
    /// The shares the caller owns or accepted.
    private let shares: [Share]
    private let owner: String
    private let caller: String?

    /// Reads the caller's shares once for a page of records, only when some record of it lies
    /// in a custom zone of the private or shared database (the only places shares are).
    init(call: CKWSCall, records: [Record]) {
        owner = call.owner
        caller = call.user
        guard call.path.database != "public", records.contains(where: { !$0.recordID.zoneID.isDefault }),
              let found = try? call.database.shares() else {
            shares = []
            return
        }
        shares = found.owned + found.accepted
    }

    /// The share keys that apply to the record, to write after its own members.
    func members(for record: Record) -> [(String, JSONValue)] {
        guard !shares.isEmpty else { return [] }
        let zone = record.recordID.zoneID
        let zoneOwner = zone.ownerName == ZoneID.defaultOwnerName ? owner : zone.ownerName
        let inZone = shares.filter { $0.recordID.zoneID.zoneName == zone.zoneName && $0.ownerRecordName == zoneOwner }
        if ShareRecordType.isShareType(record.recordType), let share = inZone.first(where: { $0.recordID.recordName == record.recordName }) {
            return ShareKeys.shareMembers(share, caller: caller)
        }
        if let share = inZone.first(where: { $0.rootRecordName == record.recordName }) {
            return [("share", .object([("recordName", .string(share.recordID.recordName))])), ("shortGUID", .string(share.shortGUID))]
        }
        return []
    }

    /// A share record's JSON with the keys CKWS adds to it.
    static func shareRecord(_ json: JSONValue, share: Share, caller: String?) -> JSONValue {
        guard case .object(let members) = json else { return json }
        return .object(members + shareMembers(share, caller: caller))
    }

    /// The keys CKWS adds to a share record.
    static func shareMembers(_ share: Share, caller: String?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        members.append(("publicPermission", .string(share.publicPermission.wireName)))
        members.append(("participants", .array(share.participants.map(participant))))
        if let owner = share.participants.first(where: { $0.type == .owner }) { members.append(("owner", participant(owner))) }
        if let mine = share.participants.first(where: { $0.userRecordName == caller && $0.status != .removed }) {
            members.append(("currentUserParticipant", participant(mine)))
        }
        members.append(("shortGUID", .string(share.shortGUID)))
        return members
    }

    static func participant(_ participant: ShareParticipant) -> JSONValue {
        .object([("userIdentity", identity(participant.userRecordName)), ("type", .string(participant.type.wireName)),
                 ("acceptanceStatus", .string(participant.status.wireName)), ("permission", .string(participant.permission.wireName))])
    }

    static func identity(_ userRecordName: String) -> JSONValue {
        .object([("userRecordName", .string(userRecordName)), ("nameComponents", .object([])),
                 ("lookupInfo", .object([("userRecordName", .string(userRecordName))]))])
    }
}

extension CKWSCall {
    /// Records as responses carry them, with the share keys of those in a share.
    func entries(_ records: [Record]) -> [RecordEntry] {
        let keys = ShareKeys(call: self, records: records)
        return records.map { entry($0, extra: keys.members(for: $0)) }
    }
}
