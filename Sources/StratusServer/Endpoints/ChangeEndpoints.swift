import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// `changes/database`, `changes/zone` and the older `zones/changes`.
enum ChangeEndpoints {
    /// Zones changed, deleted or purged since a database token.
    /// `alsoAs` repeats the token under other names.
    static func database(_ call: CKWSCall, tokenKey: String = "syncToken", alsoAs names: [String] = []) throws -> JSONValue {
        let page = try call.database.databaseChanges(since: call.body[tokenKey]?.stringValue, resultsLimit: try call.integer("resultsLimit"))
        var zones: [JSONValue] = page.changedZoneIDs.map { .object([("zoneID", RecordJSON.encodeZoneID($0, owner: call.owner))]) }
        zones += page.deletedZoneIDs.map { DeletionJSON.zone($0, owner: call.owner) }
        zones += page.purgedZoneIDs.map { DeletionJSON.zone($0, owner: call.owner, adding: [("purged", .bool(true))]) }
        return ChangePageJSON.encode([("zones", .array(zones))], syncToken: page.changeToken, moreComing: page.moreComing, alsoAs: names)
    }

    /// `zones/changes` (deprecated): the same page under both of the names the docs give its token.
    static func zones(_ call: CKWSCall) throws -> JSONValue {
        let key = call.body["metaSyncToken"] != nil ? "metaSyncToken" : "syncToken"
        return try database(call, tokenKey: key, alsoAs: ["metaSyncToken"])
    }

    /// Each requested zone's changes since its token; a zone that fails gets a per-zone error.
    /// A zone's own keys override the request's (`resultsLimit`, `desiredKeys`,
    /// `desiredRecordTypes`).
    static func zone(_ call: CKWSCall) throws -> CKWSAnswer {
        guard case .array(let items)? = call.body["zones"] else {
            throw CKWSFailure.badRequest("zones: missing; send {\"zones\": [{\"zoneID\": ..., \"syncToken\": ...}]}")
        }
        let defaultKeys = try call.desiredKeys(call.body["desiredKeys"])
        let defaultLimit = try call.integer("resultsLimit")
        let defaultTypes = try call.desiredKeys(call.body["desiredRecordTypes"], key: "desiredRecordTypes")
        var results: [ZoneChangesEntry] = []
        for (index, item) in items.enumerated() {
            guard let zoneJSON = item["zoneID"] else { throw CKWSFailure.badRequest("zones[\(index)].zoneID: missing") }
            let zoneID = try call.zoneID(zoneJSON, path: "zones[\(index)].zoneID")
            let keys = item["desiredKeys"] != nil ? try call.desiredKeys(item["desiredKeys"]) : defaultKeys
            let limit = item["resultsLimit"]?.int64Value.map { Int(clamping: $0) } ?? defaultLimit
            let types = item["desiredRecordTypes"] != nil ? try call.desiredKeys(item["desiredRecordTypes"], key: "desiredRecordTypes") : defaultTypes
            do {
                results.append(.page(try RecordEndpoints.zoneChanges(call, zoneID: zoneID, token: item["syncToken"]?.stringValue,
                                                                      desiredKeys: keys, limit: limit, recordTypes: types.map(Set.init))))
            } catch let error as CloudKitError {
                results.append(.failure(error.ckwsItem(("zoneID", RecordJSON.encodeZoneID(zoneID, owner: call.owner)))))
            }
        }
        return CKWSAnswer(bytes: call.answerWriter.zones(results))
    }
}
