import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// `zones/list`, `zones/lookup`, `zones/modify` and `zones/changes`.
enum ZoneEndpoints {
    /// With `"includeRecordCounts": true` (an extension; iCloud does not say), each zone also
    /// carries `recordCount`, so a remote client lists zones as a local store does.
    static func list(_ call: CKWSCall) throws -> JSONValue {
        let counts = call.body["includeRecordCounts"]?.boolValue == true
        return .object([("zones", .array(try call.database.allRecordZones().map { zone in
            let json = ZoneJSON.encode(zone, owner: call.owner)
            guard counts, case .object(let members) = json else { return json }
            return .object(members + [("recordCount", .integer(Int64(zone.recordCount)))])
        }))])
    }

    /// One entry per requested zone, in order: the zone, or a per-zone `ZONE_NOT_FOUND`.
    static func lookup(_ call: CKWSCall) throws -> JSONValue {
        guard case .array(let items)? = call.body["zones"] else { throw CKWSFailure.badRequest("zones: missing; send {\"zones\": [{\"zoneName\": ...}]}") }
        let zones = try call.database.allRecordZones()
        return .object([("zones", .array(try items.enumerated().map { index, item in
            let requested: ZoneID
            do {
                requested = try call.zoneID(item, path: "zones[\(index)]")
            } catch let failure as CKWSFailure where failure.serverErrorCode == "ZONE_NOT_FOUND" {
                return ItemErrorJSON.encode(item: [("zoneID", item)], serverErrorCode: "ZONE_NOT_FOUND", reason: failure.reason, layout: .reasonFirst)
            }
            if let zone = zones.first(where: { $0.zoneID == requested }) { return ZoneJSON.encode(zone, owner: call.owner) }
            return ItemErrorJSON.encode(item: [("zoneID", RecordJSON.encodeZoneID(requested, owner: call.owner))], serverErrorCode: "ZONE_NOT_FOUND",
                                        reason: "Zone '\(requested.zoneName)' does not exist", layout: .reasonFirst)
        }))])
    }

    /// Creates and deletes zones, one operation each, in order; creating a zone that exists
    /// returns it, as the native save is idempotent.
    static func modify(_ call: CKWSCall) throws -> JSONValue {
        guard case .array(let items)? = call.body["operations"] else {
            throw CKWSFailure.badRequest("operations: missing; send {\"operations\": [{\"operationType\": \"create\", \"zone\": {\"zoneID\": ...}}]}")
        }
        var results: [JSONValue] = []
        for (index, item) in items.enumerated() {
            let path = "operations[\(index)]"
            guard let type = item["operationType"]?.stringValue, type == "create" || type == "delete" else {
                throw CKWSFailure.badRequest("\(path).operationType: use create or delete")
            }
            let zoneJSONValue = item["zone"]?["zoneID"] ?? item["zone"]
            guard let zoneJSONValue else { throw CKWSFailure.badRequest("\(path).zone.zoneID: missing") }
            let zoneID = try call.zoneID(zoneJSONValue, path: "\(path).zone.zoneID")
            do {
                if type == "create" {
                    try call.database.modifyRecordZones(saving: [zoneID])
                    let zone = try call.database.allRecordZones().first { $0.zoneID == zoneID }
                    results.append(zone.map { ZoneJSON.encode($0, owner: call.owner) } ?? .null)
                } else {
                    try call.database.modifyRecordZones(deleting: [zoneID])
                    results.append(DeletionJSON.zone(zoneID, owner: call.owner))
                }
            } catch let error as CloudKitError {
                results.append(error.ckwsItem(("zoneID", RecordJSON.encodeZoneID(zoneID, owner: call.owner))))
            }
        }
        return .object([("zones", .array(results))])
    }
}
