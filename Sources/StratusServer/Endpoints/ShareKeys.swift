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

    /// The record's JSON with the share keys that apply to it.
    func add(to json: JSONValue, of record: Record) -> JSONValue {
        guard !shares.isEmpty, case .object(var members) = json else { return json }
        let zone = record.recordID.zoneID
        let zoneOwner = zone.ownerName == ZoneID.defaultOwnerName ? owner : zone.ownerName
        let inZone = shares.filter { $0.recordID.zoneID.zoneName == zone.zoneName && $0.ownerRecordName == zoneOwner }
        if ShareRecordType.isShareType(record.recordType), let share = inZone.first(where: { $0.recordID.recordName == record.recordName }) {
            return ShareKeys.shareRecord(json, share: share, caller: caller)
        }
        if let share = inZone.first(where: { $0.rootRecordName == record.recordName }) {
            members.append(("share", .object([("recordName", .string(share.recordID.recordName))])))
            members.append(("shortGUID", .string(share.shortGUID)))
        }
        return .object(members)
    }

    /// A share record's JSON with the keys CKWS adds to it.
    static func shareRecord(_ json: JSONValue, share: Share, caller: String?) -> JSONValue {
        guard case .object(var members) = json else { return json }
        members.append(("publicPermission", .string(share.publicPermission.wireName)))
        members.append(("participants", .array(share.participants.map(participant))))
        if let owner = share.participants.first(where: { $0.type == .owner }) { members.append(("owner", participant(owner))) }
        if let mine = share.participants.first(where: { $0.userRecordName == caller && $0.status != .removed }) {
            members.append(("currentUserParticipant", participant(mine)))
        }
        members.append(("shortGUID", .string(share.shortGUID)))
        return .object(members)
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
    func encode(_ records: [Record]) -> [JSONValue] {
        let keys = ShareKeys(call: self, records: records)
        return records.map { keys.add(to: encode($0), of: $0) }
    }
}
