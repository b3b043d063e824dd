import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine

/// One database of a remote container as a ``CloudDatabaseService``: each call one or more CKWS
/// requests (split at 200 items, paged at 200 records), each answer decoded by `StratusCKWS`.
/// What CKWS has no call for throws `notAvailableRemotely`, never an answer made up here.
public struct RemoteDatabase: CloudDatabaseService {
    public let scope: DatabaseScope
    let client: CKWSClient
    let markers: QueryMarkers

    /// The most items CKWS takes in one request, and records it answers in one page.
    public static let batchLimit = 200

    init(scope: DatabaseScope, client: CKWSClient, markers: QueryMarkers) {
        self.scope = scope
        self.client = client
        self.markers = markers
    }

    /// A remote container has no fault plan: the same database.
    public var withoutFaults: RemoteDatabase { self }

    var database: String { scope.name }

    // MARK: Zones

    public func allRecordZones() throws -> [RecordZone] {
        // `stratus serve` counts each zone's records when asked; iCloud does not (0 then).
        let answer = try call("zones/list", .object([("includeRecordCounts", .bool(true))]))
        return try items(answer["zones"], path: "zones").map { json in
            owned(try decoded { () throws(RecordJSON.DecodingError) in try ZoneJSON.decode(json, owner: nil) })
        }
    }

    public func modifyRecordZones(saving: [ZoneID], deleting: [ZoneID], purging: Bool) throws {
        if purging { throw RemoteDatabase.unavailable("purging zones (CloudKit Web Services deletes them)") }
        let operations = saving.map { ("create", $0) } + deleting.map { ("delete", $0) }
        for chunk in operations.chunked(RemoteDatabase.batchLimit) {
            let body: JSONValue = .object([("operations", .array(chunk.map { type, zoneID in
                .object([("operationType", .string(type)), ("zone", .object([("zoneID", zoneJSON(zoneID))]))])
            }))])
            let answer = try call("zones/modify", body)
            for (item, (_, zoneID)) in zip(try items(answer["zones"], path: "zones"), chunk) {
                if let error = ItemErrorJSON.decode(item, zoneID: zoneID) { throw typed(error, zone: zoneID) }
            }
        }
    }

    public func recordCountsByType(inZoneWith zoneID: ZoneID) throws -> [String: Int] {
        throw RemoteDatabase.unavailable("counting a zone's records by type")
    }

    // MARK: Helpers

    /// A CKWS request to this database; a zone-level error names `zone`.
    func call(_ operation: String, _ body: JSONValue = .object([]), zone: ZoneID? = nil) throws -> JSONValue {
        do {
            return try client.call(database, operation, body: body)
        } catch let error as CloudKitError {
            throw typed(error, zone: zone)
        }
    }

    /// A CKWS request to this database whose answer holds records: read from its bytes, without
    /// a tree (``RecordsAnswer``).
    func records(_ operation: String, _ body: JSONValue, zone: ZoneID) throws -> RecordsAnswer {
        let bytes = try answerBody(operation, body, zone: zone)
        return try decoded { () throws(RecordJSON.DecodingError) in try RecordsAnswer.decode(bytes, zoneID: zone) }
    }

    /// Like ``call(_:_:zone:)``, the answer's bytes.
    func answerBody(_ operation: String, _ body: JSONValue, zone: ZoneID) throws -> [UInt8] {
        do {
            return try client.answerBody(database, operation, body: body)
        } catch let error as CloudKitError {
            throw typed(error, zone: zone)
        }
    }

    /// The typed reason of an error the answer only names by code.
    func typed(_ error: CloudKitError, zone: ZoneID?) -> CloudKitError {
        var error = error
        if error.code == .zoneNotFound, error.reason == .general, let zone {
            error.reason = .zoneNotFound(zoneName: zone.zoneName, database: scope)
        }
        return error
    }

    /// A zone ID for a request body: the default owner is the signed-in user, left out.
    func zoneJSON(_ zoneID: ZoneID) -> JSONValue {
        var members: [(String, JSONValue)] = [("zoneName", .string(zoneID.zoneName))]
        if zoneID.ownerName != ZoneID.defaultOwnerName { members.append(("ownerRecordName", .string(zoneID.ownerName))) }
        return .object(members)
    }

    /// A record of an answer, in its zone as this side names it.
    func record(_ json: JSONValue, zoneID: ZoneID) throws -> Record {
        owned(try decoded { () throws(RecordJSON.DecodingError) in try RecordJSON.decode(json, zoneID: zoneID, restoring: true) }, zoneID: zoneID)
    }

    /// An answered record in its zone as this side names it (`zoneID`: the zone asked about).
    func owned(_ record: Record, zoneID: ZoneID) -> Record {
        var record = record
        record.recordID = RecordID(recordName: record.recordName, zoneID: owned(record.recordID.zoneID, as: zoneID))
        return record
    }

    /// In the private database every zone is the signed-in user's: named with the default owner,
    /// as a local store names them. In the shared database the owner is another user's name.
    func owned(_ zone: RecordZone) -> RecordZone {
        var zone = zone
        zone.zoneID = owned(zone.zoneID, as: nil)
        return zone
    }

    func owned(_ zoneID: ZoneID, as asked: ZoneID?) -> ZoneID {
        if let asked, asked.zoneName == zoneID.zoneName { return asked }
        return scope == .shared ? zoneID : ZoneID(zoneName: zoneID.zoneName)
    }

    /// The array member of an answer, or an error naming what the answer lacked.
    func items(_ json: JSONValue?, path: String) throws -> [JSONValue] {
        guard case .array(let items)? = json else { throw missing(path) }
        return items
    }

    /// An answer's records, or an error naming what the answer lacked.
    func items(_ records: [AnsweredRecord]?, path: String) throws -> [AnsweredRecord] {
        guard let records else { throw missing(path) }
        return records
    }

    private func missing(_ path: String) -> CloudKitError {
        CloudKitError(.internalError, "\(client.endpoint.url) answered without '\(path)'", reason: .remoteUnreachable(url: client.endpoint.url))
    }

    /// A decoding failure of an answer, as the server's fault.
    func decoded<T>(_ decode: () throws(RecordJSON.DecodingError) -> T) throws -> T {
        do {
            return try decode()
        } catch {
            throw CloudKitError(.internalError, "\(client.endpoint.url) answered JSON that is not CloudKit's: \(error)",
                                reason: .remoteUnreachable(url: client.endpoint.url))
        }
    }

    /// What CloudKit Web Services cannot do, said as such.
    static func unavailable(_ feature: String) -> CloudKitError {
        CloudKitError(.serverRejectedRequest, "CloudKit Web Services has no call for \(feature); it works on a local store",
                      reason: .notAvailableRemotely(feature: feature))
    }
}

extension Array {
    /// The elements in runs of at most `size`, in order.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
