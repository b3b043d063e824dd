import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine
import StratusModel

/// Shares over CloudKit Web Services, as CloudKit JS and MistKit reach them. CKWS has no call
/// that lists shares: a share is a `cloudkit.share` record in a custom zone, so the listing
/// queries that type in each zone of the private database (owned) and of the shared database
/// (accepted), then resolves their short GUIDs (`records/resolve`), whose results name the root
/// record and the owner. Changes are `records/modify` saves of the share record; accepting is
/// `records/accept`. A record's share status has no call (the inspector leaves it out).
///
/// iCloud answers such a query only when `cloudkit.share` has its `recordName` marked
/// queryable in the schema, as any query needs; its error then says so.
extension RemoteDatabase {
    public func shares() throws -> (owned: [Share], accepted: [Share]) {
        let guids = try sibling(.private).shareGUIDs() + sibling(.shared).shareGUIDs()
        let shares = try resolve(guids).map(\.share)
        let owned = shares.filter { $0.recordID.zoneID.ownerName == ZoneID.defaultOwnerName }
        let accepted = shares.filter { $0.recordID.zoneID.ownerName != ZoneID.defaultOwnerName }
        return (owned.sorted { ($0.recordID.zoneID.zoneName, $0.rootRecordName ?? "") < ($1.recordID.zoneID.zoneName, $1.rootRecordName ?? "") },
                accepted.sorted { ($0.recordID.zoneID.zoneName, $0.ownerRecordName, $0.rootRecordName ?? "")
                    < ($1.recordID.zoneID.zoneName, $1.ownerRecordName, $1.rootRecordName ?? "") })
    }

    @discardableResult
    public func addParticipant(_ participant: String, permission: SharePermission, toShare url: String) throws -> Share {
        try changeShare(url) { share in
            var participants = share.participants.filter { $0.userRecordName != participant }
            participants.append(ShareParticipant(userRecordName: participant, alias: participant, type: .privateUser,
                                                 permission: permission, status: .invited))
            return [("participants", ShareJSON.participants(participants))]
        }
    }

    @discardableResult
    public func removeParticipant(_ participant: String, fromShare url: String) throws -> Share {
        try changeShare(url) { share in
            [("participants", ShareJSON.participants(share.participants.filter { $0.userRecordName != participant }))]
        }
    }

    public func shareStatus(of recordID: RecordID) throws -> RecordShareStatus? {
        throw RemoteDatabase.unavailable("a record's share status")
    }

    /// A `records/modify` create of the share record: `forRecord` names the root, and a zone
    /// is shared by the record name `cloudkit.zoneshare`.
    @discardableResult
    public func createShare(rootRecord: String?, inZoneWith zoneID: ZoneID, publicPermission: SharePermission, title: String?,
                            recordName requestedName: String?, fields: [String: FieldValue]) throws -> Share {
        var fields = fields
        if let title { fields["cloudkit.title"] = .string(title) }
        let name = rootRecord == nil ? ShareRecordType.zoneWideShareRecordName : requestedName ?? "Share-\(UUID().uuidString)"
        var members: [(String, JSONValue)] = [("recordName", .string(name)), ("recordType", .string(ShareRecordType.name))]
        if case .object(let encoded) = RecordJSON.encode(Record(recordType: ShareRecordType.name, fields: fields)),
           let encodedFields = encoded.first(where: { $0.0 == "fields" }) {
            members.append(encodedFields)
        }
        if let rootRecord { members.append(("forRecord", .object([("recordName", .string(rootRecord))]))) }
        members.append(("publicPermission", .string(publicPermission.wireName)))
        let saved = try sibling(.private).modifyShareRecord("create", .object(members), zoneID: zoneID)
        guard let guid = saved["shortGUID"]?.stringValue else {
            throw CloudKitError(.internalError, "\(client.endpoint.url) saved the share without its shortGUID", reason: .remoteUnreachable(url: client.endpoint.url))
        }
        return try resolved(guid).share
    }

    /// `records/accept`, which CKWS serves in the public database whatever the share's zone.
    @discardableResult
    public func acceptShare(_ url: String) throws -> Share {
        let guid = Share.shortGUID(fromURL: url)
        let answer = try client.call(DatabaseScope.public.name, "records/accept", body: RemoteDatabase.shortGUIDs([guid]))
        guard let result = try items(answer["results"], path: "results").first else { throw RemoteDatabase.noShare(url) }
        if let error = ItemErrorJSON.decode(result) { throw error }
        guard let share = ShareJSON.share(fromResult: result) else { throw RemoteDatabase.noShare(url) }
        return share
    }

    @discardableResult
    public func setPublicPermission(_ permission: SharePermission, ofShare url: String) throws -> Share {
        try changeShare(url) { _ in [("publicPermission", .string(permission.wireName))] }
    }

    /// A `records/modify` delete of the share record, as CloudKit JS ends a share: in the
    /// owner's private database it ends the share; in a participant's shared database it takes
    /// the participant out (CloudKit's rule), and the share stays for the others.
    public func deleteShare(_ url: String) throws {
        let (share, record) = try resolved(url)
        var members: [(String, JSONValue)] = [("recordName", .string(share.recordID.recordName))]
        if let tag = record["recordChangeTag"] { members.append(("recordChangeTag", tag)) }
        let owned = share.recordID.zoneID.ownerName == ZoneID.defaultOwnerName
        _ = try sibling(owned ? .private : .shared).modifyShareRecord("forceDelete", .object(members), zoneID: share.recordID.zoneID)
    }

    // MARK: Helpers

    /// The same container's `scope` database, through the same signed-in client.
    func sibling(_ scope: DatabaseScope) -> RemoteDatabase {
        RemoteDatabase(scope: scope, client: client, markers: markers)
    }

    /// The short GUIDs of the share records in this database's custom zones (shares live in
    /// no default zone), every page of each zone's query.
    private func shareGUIDs() throws -> [String] {
        var guids: [String] = []
        for zone in try allRecordZones() where !zone.zoneID.isDefault {
            let request: JSONValue = .object([("zoneID", zoneJSON(zone.zoneID)), ("query", .object([("recordType", .string(ShareRecordType.name))]))])
            var marker: String?
            repeat {
                let (page, answered) = try page(request, zoneID: zone.zoneID, marker: marker, desiredKeys: nil, resultsLimit: nil)
                guids += answered.compactMap(\.shortGUID)
                marker = page.cursor
            } while marker != nil
        }
        return guids
    }

    /// Each short GUID's share and its share record as answered, 200 a request.
    private func resolve(_ guids: [String]) throws -> [(share: Share, record: JSONValue)] {
        var resolved: [(share: Share, record: JSONValue)] = []
        for chunk in guids.chunked(RemoteDatabase.batchLimit) {
            let answer = try client.call(DatabaseScope.public.name, "records/resolve", body: RemoteDatabase.shortGUIDs(Array(chunk)))
            for (result, guid) in zip(try items(answer["results"], path: "results"), chunk) {
                if let error = ItemErrorJSON.decode(result) { throw error }
                guard let share = ShareJSON.share(fromResult: result), let record = result["share"] else { throw RemoteDatabase.noShare(guid) }
                resolved.append((share, record))
            }
        }
        return resolved
    }

    private func resolved(_ url: String) throws -> (share: Share, record: JSONValue) {
        guard let first = try resolve([Share.shortGUID(fromURL: url)]).first else { throw RemoteDatabase.noShare(url) }
        return first
    }

    /// Saves the share at `url` with `change`'s members, under its change tag (a share is
    /// always saved if unchanged), and reads it back.
    private func changeShare(_ url: String, _ change: (Share) -> [(String, JSONValue)]) throws -> Share {
        let (share, record) = try resolved(url)
        guard share.recordID.zoneID.ownerName == ZoneID.defaultOwnerName else {
            throw CloudKitError(.permissionFailure, "Only the share's owner changes its participants or permission.")
        }
        var members: [(String, JSONValue)] = [("recordName", .string(share.recordID.recordName)), ("recordType", .string(ShareRecordType.name))]
        if let tag = record["recordChangeTag"] { members.append(("recordChangeTag", tag)) }
        members += change(share)
        _ = try sibling(.private).modifyShareRecord("update", .object(members), zoneID: share.recordID.zoneID)
        return try resolved(share.url).share
    }

    /// One `records/modify` operation on a share record; its per-record error thrown.
    private func modifyShareRecord(_ type: String, _ record: JSONValue, zoneID: ZoneID) throws -> JSONValue {
        let body: JSONValue = .object([("zoneID", zoneJSON(zoneID)),
                                       ("operations", .array([.object([("operationType", .string(type)), ("record", record)])]))])
        let answer = try call("records/modify", body, zone: zoneID)
        guard let item = try items(answer["records"], path: "records").first else { throw RemoteDatabase.noShare(zoneID.zoneName) }
        if let error = ItemErrorJSON.decode(item, zoneID: zoneID) { throw typed(error, zone: zoneID) }
        return item
    }

    private static func shortGUIDs(_ guids: [String]) -> JSONValue {
        .object([("shortGUIDs", .array(guids.map { .object([("value", .string($0))]) }))])
    }

    private static func noShare(_ what: String) -> CloudKitError {
        CloudKitError(.unknownItem, "No share answered for \(what)")
    }
}
