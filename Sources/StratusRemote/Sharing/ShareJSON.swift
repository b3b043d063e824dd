import StratusCKWS
import StratusCloud
import StratusEngine
import StratusModel

/// A share as a `records/resolve` (or `records/accept`) result describes it: the share record
/// with its share keys (`publicPermission`, `participants`, `shortGUID`), the owner's zone and
/// the root record's name (a share record does not name its root; the result does).
///
/// CKWS knows users by record name only: an alias is that name.
enum ShareJSON {
    /// The share of one result; nil when the result lacks what a share needs.
    static func share(fromResult result: JSONValue) -> Share? {
        guard let record = result["share"], let recordName = record["recordName"]?.stringValue,
              let zoneName = result["zoneID"]?["zoneName"]?.stringValue ?? record["zoneID"]?["zoneName"]?.stringValue,
              let guid = record["shortGUID"]?.stringValue ?? result["shortGUID"]?["value"]?.stringValue else { return nil }
        let owner = result["ownerIdentity"]?["userRecordName"]?.stringValue
            ?? result["zoneID"]?["ownerRecordName"]?.stringValue ?? ZoneID.defaultOwnerName
        // The owner names their zone with the default owner, as a local store does.
        let zoneID = ZoneID(zoneName: zoneName, ownerName: result["databaseScope"]?.stringValue == "PRIVATE" ? ZoneID.defaultOwnerName : owner)
        var participants: [ShareParticipant] = []
        if case .array(let items)? = record["participants"] { participants = items.compactMap(participant) }
        var title: String?
        if case .string(let text)? = record["fields"]?["cloudkit.title"]?["value"] { title = text }
        let permission = record["publicPermission"]?.stringValue.flatMap { SharePermission(name: $0) } ?? .none
        return Share(recordID: RecordID(recordName: recordName, zoneID: zoneID), rootRecordName: result["rootRecordName"]?.stringValue,
                     ownerRecordName: owner, ownerAlias: owner, shortGUID: guid, publicPermission: permission,
                     participants: participants, title: title)
    }

    /// One Share Participant dictionary; nil without a user record name (an invitee known only
    /// by email or phone, whom this front end cannot name).
    static func participant(_ json: JSONValue) -> ShareParticipant? {
        guard let user = json["userIdentity"]?["userRecordName"]?.stringValue
                ?? json["userIdentity"]?["lookupInfo"]?["userRecordName"]?.stringValue else { return nil }
        let type: ParticipantType
        switch json["type"]?.stringValue {
        case "OWNER": type = .owner
        case "PUBLIC_USER": type = .publicUser
        default: type = .privateUser
        }
        let status: ParticipantStatus
        switch json["acceptanceStatus"]?.stringValue {
        case "ACCEPTED": status = .accepted
        case "REMOVED": status = .removed
        default: status = .invited // `INVITED` (iCloud) or `PENDING` (CloudKit JS's name)
        }
        let permission = json["permission"]?.stringValue.flatMap { SharePermission(name: $0) } ?? .readOnly
        return ShareParticipant(userRecordName: user, alias: user, type: type, permission: permission, status: status)
    }

    /// The participants of a share as a `records/modify` of its share record sends them (the
    /// owner's entry is the server's to keep).
    static func participants(_ participants: [ShareParticipant]) -> JSONValue {
        .array(participants.filter { $0.type != .owner && $0.status != .removed }.map { participant in
            .object([("userIdentity", .object([("userRecordName", .string(participant.userRecordName))])),
                     ("type", .string(participant.type.wireName)), ("permission", .string(participant.permission.wireName))])
        })
    }
}
