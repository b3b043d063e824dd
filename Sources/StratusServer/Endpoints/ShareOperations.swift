import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// The `records/modify` operations on `cloudkit.share` records, as CloudKit Web Services makes
/// and changes shares: `create` with `forRecord` shares that root (a record of the same request
/// or one saved before), `create` of `cloudkit.zoneshare` shares the zone; `publicPermission`
/// and `participants` (by user record name) set who may join; a later save of the share changes
/// them. Deleting the share record ends the share (its owner) or leaves it (a participant, in
/// the shared database).
enum ShareOperations {
    /// The share record as saved, with its share keys, or the per-record error; `failed` says which.
    static func save(_ record: Record, json: JSONValue, creating: Bool, zoneID: ZoneID, call: CKWSCall) -> (json: JSONValue, failed: Bool) {
        do {
            let database = call.database
            let wanted = try participants(json)
            let permission = try json["publicPermission"].map { value -> SharePermission in
                guard let name = value.stringValue, let parsed = SharePermission(name: name) else {
                    throw CloudKitError(.invalidArguments, "publicPermission must be NONE, READ_ONLY or READ_WRITE")
                }
                return parsed
            }
            var share: Share
            if creating {
                let root = json["forRecord"]?["recordName"]?.stringValue
                guard root != nil || record.recordName == ShareRecordType.zoneWideShareRecordName else {
                    throw CloudKitError(.invalidArguments, "A share names its root record in forRecord, or shares the whole zone with the record name \(ShareRecordType.zoneWideShareRecordName)")
                }
                var title: String?
                if case .string(let text)? = record["cloudkit.title"] { title = text }
                share = try database.createShare(rootRecord: root, inZoneWith: zoneID, publicPermission: permission ?? .none, title: title,
                                                 recordName: record.recordName, fields: record.fields)
            } else {
                guard let status = try database.shareStatus(of: record.recordID), status.share.recordID.recordName == record.recordName else {
                    throw CloudKitError(.unknownItem, "Share '\(record.recordName)' does not exist")
                }
                share = status.share
                if let permission, permission != share.publicPermission { share = try database.setPublicPermission(permission, ofShare: share.url) }
            }
            if let wanted {
                let current = share.participants.filter { $0.type != .owner && $0.status != .removed }
                for participant in current where !wanted.contains(where: { $0.user == participant.userRecordName }) {
                    share = try database.removeParticipant(participant.userRecordName, fromShare: share.url)
                }
                for (user, permission) in wanted where !current.contains(where: { $0.userRecordName == user && $0.permission == permission }) {
                    share = try database.addParticipant(user, permission: permission, toShare: share.url)
                }
            }
            return (ShareEndpoints.shareRecordJSON(try database.shareMetadata(share.url), call: call), false)
        } catch let error as CloudKitError {
            // Without `retryAfter`, as this answer has always been.
            return (ItemErrorJSON.encode(item: [("recordName", .string(record.recordName))], serverErrorCode: error.code.serverErrorCode,
                                         reason: error.message, layout: .reasonFirst), true)
        } catch {
            return (ItemErrorJSON.encode(item: [("recordName", .string(record.recordName))], serverErrorCode: "BAD_REQUEST",
                                         reason: "\(error)", layout: .reasonFirst), true)
        }
    }

    /// A saved record's answer with the `shortGUID` its `createShortGUID: true` asked for (the
    /// one its share carries, before and after the share exists).
    static func addingShortGUID(to entry: RecordEntry, recordID: RecordID, call: CKWSCall) -> RecordEntry {
        switch entry {
        case .json(let json): return .json(addingShortGUID(to: json, recordID: recordID, call: call))
        case .record(let record, let encrypted, let extra):
            guard !extra.contains(where: { $0.0 == "shortGUID" }), let guid = try? call.database.shortGUID(forRoot: recordID) else { return entry }
            return .record(record, encrypted: encrypted, extra: extra + [("shortGUID", .string(guid))])
        }
    }

    private static func addingShortGUID(to json: JSONValue, recordID: RecordID, call: CKWSCall) -> JSONValue {
        guard case .object(var members) = json, json["serverErrorCode"] == nil, json["shortGUID"] == nil,
              let guid = try? call.database.shortGUID(forRoot: recordID) else { return json }
        members.append(("shortGUID", .string(guid)))
        return .object(members)
    }

    /// The participants a request asks for (the owner's entry left out), or nil when it names
    /// none; a participant is named by `userIdentity.userRecordName` or `lookupInfo.userRecordName`.
    private static func participants(_ json: JSONValue) throws -> [(user: String, permission: SharePermission)]? {
        guard let list = json["participants"] else { return nil }
        guard case .array(let items) = list else { throw CloudKitError(.invalidArguments, "participants must be an array") }
        return try items.enumerated().compactMap { index, item in
            if item["type"]?.stringValue == ParticipantType.owner.wireName { return nil }
            let identity = item["userIdentity"]
            guard let user = identity?["userRecordName"]?.stringValue ?? identity?["lookupInfo"]?["userRecordName"]?.stringValue else {
                throw CloudKitError(.invalidArguments, "participants[\(index)]: name the user with userIdentity.userRecordName (this store keeps no email addresses or phone numbers)")
            }
            let permission = item["permission"]?.stringValue.flatMap { SharePermission(name: $0) } ?? .readOnly
            guard permission != .none else { throw CloudKitError(.invalidArguments, "participants[\(index)].permission must be READ_ONLY or READ_WRITE") }
            return (user, permission)
        }
    }
}
