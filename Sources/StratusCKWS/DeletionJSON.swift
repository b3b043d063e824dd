import StratusCloud

/// A deletion as CloudKit Web Services answers it: what was deleted, then `"deleted": true`
/// (`{"recordName", "recordType"?, "deleted": true}` for a record). One shape for the server's
/// `records/modify` and change pages, its zone and subscription deletions, and the command line.
public enum DeletionJSON {
    /// A deleted record; a change page names its type too, a `records/modify` answer does not.
    public static func record(_ recordName: String, recordType: String? = nil, adding extra: [(String, JSONValue)] = []) -> JSONValue {
        var identity: [(String, JSONValue)] = [("recordName", .string(recordName))]
        if let recordType { identity.append(("recordType", .string(recordType))) }
        return encode(identity, adding: extra)
    }

    /// A deleted zone, its ID as ``RecordJSON/encodeZoneID(_:owner:)`` writes it.
    public static func zone(_ zoneID: ZoneID, owner: String?, adding extra: [(String, JSONValue)] = []) -> JSONValue {
        encode([("zoneID", RecordJSON.encodeZoneID(zoneID, owner: owner))], adding: extra)
    }

    /// A deleted subscription.
    public static func subscription(_ subscriptionID: String) -> JSONValue {
        encode([("subscriptionID", .string(subscriptionID))])
    }

    /// The shape itself: the members naming what was deleted, `"deleted": true`, then any
    /// extra members (`purged`, `cascade`).
    public static func encode(_ identity: [(String, JSONValue)], adding extra: [(String, JSONValue)] = []) -> JSONValue {
        .object(identity + [("deleted", .bool(true))] + extra)
    }
}
