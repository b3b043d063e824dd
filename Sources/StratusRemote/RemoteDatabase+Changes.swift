import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine

/// `changes/zone`, `changes/database` and the zone's current token.
extension RemoteDatabase {
    public func recordZoneChanges(inZoneWith zoneID: ZoneID, since token: String?, until endToken: String?, desiredKeys: [String]?,
                                  resultsLimit: Int?, includingChangedKeys: Bool) throws -> ZoneChangesPage {
        if endToken != nil { throw RemoteDatabase.unavailable("changes up to a later token (--until)") }
        return try zoneChanges(inZoneWith: zoneID, since: token, desiredKeys: desiredKeys, resultsLimit: resultsLimit,
                               includingChangedKeys: includingChangedKeys).page
    }

    /// One `changes/zone` page, and the entries as answered (a pull reads their assets'
    /// `downloadURL`s, which a decoded record does not keep).
    func zoneChanges(inZoneWith zoneID: ZoneID, since token: String?, desiredKeys: [String]?, resultsLimit: Int?,
                     includingChangedKeys: Bool) throws -> (page: ZoneChangesPage, answered: [AnsweredRecord]) {
        var zone: [(String, JSONValue)] = [("zoneID", zoneJSON(zoneID))]
        if let token { zone.append(("syncToken", .string(token))) }
        zone.append(("resultsLimit", .integer(Int64(min(resultsLimit ?? RemoteDatabase.batchLimit, RemoteDatabase.batchLimit)))))
        if let desiredKeys { zone.append(("desiredKeys", .array(desiredKeys.map { .string($0) }))) }
        var body: [(String, JSONValue)] = [("zones", .array([.object(zone)]))]
        // `stratus serve` says which keys each change set when asked; iCloud does not.
        if includingChangedKeys { body.append(("includeChangedKeys", .bool(true))) }
        let bytes = try answerBody("changes/zone", .object(body), zone: zoneID)
        guard let zone = try decoded({ () throws(RecordJSON.DecodingError) in try RecordsAnswer.decodeZones(bytes, zoneID: zoneID) }).first else {
            throw CloudKitError(.internalError, "\(client.endpoint.url) answered no zone", reason: .remoteUnreachable(url: client.endpoint.url))
        }
        if let error = ItemErrorJSON.decode(zone.members, zoneID: zoneID) { throw typed(error, zone: zoneID) }
        var changes: [ZoneChange] = []
        var changedKeys: [String: [String]] = [:]
        let answered = try items(zone.records, path: "records")
        changes.reserveCapacity(answered.count)
        for entry in answered {
            switch entry.change {
            case .deleted(let name, let type):
                changes.append(.deleted(RecordID(recordName: name, zoneID: zoneID), recordType: type ?? ""))
            case .saved(let record):
                let record = owned(record, zoneID: zoneID)
                if let keys = entry.changedKeys { changedKeys[record.recordName] = keys }
                changes.append(.changed(record))
            }
        }
        return (ZoneChangesPage(changes: changes, changeToken: zone.members["syncToken"]?.stringValue ?? token ?? "",
                                moreComing: zone.members["moreComing"]?.boolValue ?? false, changedKeys: changedKeys), answered)
    }

    public func databaseChanges(since token: String?, resultsLimit: Int?) throws -> DatabaseChangesPage {
        var body: [(String, JSONValue)] = []
        if let token { body.append(("syncToken", .string(token))) }
        if let resultsLimit { body.append(("resultsLimit", .integer(Int64(min(resultsLimit, RemoteDatabase.batchLimit))))) }
        let answer = try call("changes/database", .object(body))
        var changed: [ZoneID] = [], deleted: [ZoneID] = [], purged: [ZoneID] = []
        for item in try items(answer["zones"], path: "zones") {
            guard let json = item["zoneID"] else { continue }
            let zoneID = owned(try decoded { () throws(RecordJSON.DecodingError) in try ZoneJSON.decodeZoneID(json, owner: nil) }, as: nil)
            if item["purged"]?.boolValue == true { purged.append(zoneID) } else if item["deleted"]?.boolValue == true { deleted.append(zoneID) } else {
                changed.append(zoneID)
            }
        }
        return DatabaseChangesPage(changedZoneIDs: changed, deletedZoneIDs: deleted, purgedZoneIDs: purged,
                                   changeToken: answer["syncToken"]?.stringValue ?? token ?? "", moreComing: answer["moreComing"]?.boolValue ?? false)
    }

    public func currentToken(for zoneID: ZoneID) throws -> String {
        let answer = try call("zones/lookup", .object([("zones", .array([zoneJSON(zoneID)]))]), zone: zoneID)
        guard let zone = try items(answer["zones"], path: "zones").first else {
            throw CloudKitError(.internalError, "\(client.endpoint.url) answered no zone", reason: .remoteUnreachable(url: client.endpoint.url))
        }
        if let error = ItemErrorJSON.decode(zone, zoneID: zoneID) { throw typed(error, zone: zoneID) }
        return zone["syncToken"]?.stringValue ?? ""
    }

    /// The database's token now: its change pages read to the end (CKWS has no call for the
    /// token alone).
    public func currentDatabaseToken() throws -> String {
        var token: String?
        var page: DatabaseChangesPage
        repeat {
            page = try databaseChanges(since: token, resultsLimit: RemoteDatabase.batchLimit)
            token = page.changeToken
        } while page.moreComing
        return token ?? ""
    }
}
