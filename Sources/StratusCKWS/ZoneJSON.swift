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
}
