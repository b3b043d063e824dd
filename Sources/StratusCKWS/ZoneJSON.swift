import StratusCloud

/// A record zone as `zones/list` answers it: its ID, its current `syncToken` and `atomic`.
public enum ZoneJSON {
    /// For a Web Services answer (`owner` stands for the default owner, the ID carries its
    /// `zoneType`, `atomic` is true as the server has always answered), or, with no owner,
    /// with the store's own names, whether the zone is atomic and its record count, as the
    /// command line lists zones.
    public static func encode(_ zone: RecordZone, owner: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [("zoneID", RecordJSON.encodeZoneID(zone.zoneID, owner: owner)),
                                              ("syncToken", .string(zone.currentToken))]
        if owner != nil {
            members.append(("atomic", .bool(true)))
        } else {
            members.append(("atomic", .bool(zone.isAtomic)))
            members.append(("recordCount", .integer(Int64(zone.recordCount))))
        }
        return .object(members)
    }

    /// A zone of a `zones/list` answer. `owner`: the signed-in user's record name, which a
    /// server writes for the zones the user owns (the default owner here, as a local store
    /// names them). A server that says how many records a zone holds (`recordCount`, as
    /// `stratus serve` does) is believed; iCloud does not say, and the count is 0.
    public static func decode(_ json: JSONValue, owner: String?) throws(RecordJSON.DecodingError) -> RecordZone {
        guard let name = json["zoneID"]?["zoneName"]?.stringValue else {
            throw RecordJSON.DecodingError(path: "zoneID.zoneName", message: "missing or not a string")
        }
        return RecordZone(zoneID: zoneID(json["zoneID"]!, owner: owner, name: name), currentToken: json["syncToken"]?.stringValue ?? "",
                          recordCount: json["recordCount"]?.int64Value.map { Int(clamping: $0) } ?? 0)
    }

    /// A zone ID of an answer, with the signed-in user's own zones under the default owner.
    public static func decodeZoneID(_ json: JSONValue, owner: String?) throws(RecordJSON.DecodingError) -> ZoneID {
        guard let name = json["zoneName"]?.stringValue else {
            throw RecordJSON.DecodingError(path: "zoneID.zoneName", message: "missing or not a string")
        }
        return zoneID(json, owner: owner, name: name)
    }

    private static func zoneID(_ json: JSONValue, owner: String?, name: String) -> ZoneID {
        let ownerName = json["ownerRecordName"]?.stringValue
        if ownerName == nil || ownerName == owner { return ZoneID(zoneName: name) }
        return ZoneID(zoneName: name, ownerName: ownerName!)
    }
}
