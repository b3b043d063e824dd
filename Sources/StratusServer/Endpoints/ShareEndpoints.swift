import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// `records/resolve` and `records/accept`: a share's metadata by short GUID, and accepting it,
/// each one engine call per short GUID, with a per-item error in `results`.
enum ShareEndpoints {
    static func resolve(_ call: CKWSCall) throws -> JSONValue {
        try results(call) { guid, fetchRoot, keys in
            try call.database.shareMetadata(guid, fetchingRootRecord: fetchRoot, rootDesiredKeys: keys)
        }
    }

    static func accept(_ call: CKWSCall) throws -> JSONValue {
        try results(call) { guid, fetchRoot, keys in
            _ = try call.database.acceptShare(guid)
            return try call.database.shareMetadata(guid, fetchingRootRecord: fetchRoot, rootDesiredKeys: keys)
        }
    }

    /// Runs `body` for each `{"value": GUID, "shouldFetchRootRecord": bool, "rootRecordDesiredKeys": [...]}`.
    private static func results(_ call: CKWSCall, _ body: (String, Bool, [String]?) throws -> ShareMetadata) throws -> JSONValue {
        guard call.user != nil else {
            throw CKWSFailure(status: 421, serverErrorCode: "AUTHENTICATION_REQUIRED", reason: "request needs authorization")
        }
        guard case .array(let items)? = call.body["shortGUIDs"] else {
            throw CKWSFailure.badRequest("shortGUIDs: missing; send {\"shortGUIDs\": [{\"value\": \"...\"}]}")
        }
        var results: [JSONValue] = []
        for (index, item) in items.enumerated() {
            guard let guid = item["value"]?.stringValue ?? item.stringValue, !guid.isEmpty else {
                throw CKWSFailure.badRequest("shortGUIDs[\(index)].value: missing; each entry is {\"value\": \"<short GUID>\"}")
            }
            let fetchRoot = item["shouldFetchRootRecord"]?.boolValue ?? false
            let keys = try call.desiredKeys(item["rootRecordDesiredKeys"])
            do {
                results.append(encode(try body(guid, fetchRoot, keys), echo: item, call: call))
            } catch let error as CloudKitError {
                results.append(ItemErrorJSON.encode(item: [("shortGUID", item)], serverErrorCode: error.code.serverErrorCode, reason: error.message,
                                                    layout: .codeFirst))
            }
        }
        return .object([("results", .array(results))])
    }

    private static func encode(_ metadata: ShareMetadata, echo: JSONValue, call: CKWSCall) -> JSONValue {
        let share = metadata.share
        var members: [(String, JSONValue)] = [
            ("shortGUID", echo), ("containerIdentifier", .string(call.path.container)), ("environment", .string(call.path.environment)),
            ("databaseScope", .string(metadata.callerIsOwner ? "PRIVATE" : "SHARED")),
            ("zoneID", .object([("zoneName", .string(share.recordID.zoneID.zoneName)), ("ownerRecordName", .string(share.ownerRecordName))])),
            ("share", shareRecordJSON(metadata, call: call)),
            ("ownerIdentity", ShareKeys.identity(share.ownerRecordName)),
        ]
        if let root = share.rootRecordName { members.append(("rootRecordName", .string(root))) }
        if let rootRecord = metadata.rootRecord {
            var root = call.encode(rootRecord)
            if case .object(var fields) = root {
                fields.append(("share", .object([("recordName", .string(share.recordID.recordName))])))
                fields.append(("shortGUID", .string(share.shortGUID)))
                root = .object(fields)
            }
            members.append(("rootRecord", root))
        }
        let participant = metadata.participant
        members.append(("participantType", .string(participant?.type.wireName ?? ParticipantType.publicUser.wireName)))
        members.append(("participantStatus", .string(participant?.status.wireName ?? "UNKNOWN")))
        members.append(("participantPermission", .string(participant?.permission.wireName ?? share.publicPermission.wireName)))
        members.append(("potentialMatchList", .array([])))
        return .object(members)
    }

    /// The share record with the share keys CKWS adds: public permission, participants, owner,
    /// the caller's own entry and the short GUID.
    static func shareRecordJSON(_ metadata: ShareMetadata, call: CKWSCall) -> JSONValue {
        ShareKeys.shareRecord(call.encode(metadata.shareRecord), share: metadata.share, caller: call.user)
    }
}
