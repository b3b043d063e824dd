import StratusCloud

/// One zone's page of changes: its records (changed ones, and deletions as trees), the token
/// to continue from and whether more are waiting.
public struct ZoneChangePage {
    public var zoneID: ZoneID
    public var entries: [RecordEntry]
    public var syncToken: String
    public var moreComing: Bool

    public init(zoneID: ZoneID, entries: [RecordEntry], syncToken: String, moreComing: Bool) {
        self.zoneID = zoneID
        self.entries = entries
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// An entry of `changes/zone`'s `zones`: a zone's page, or the tree of the error it met.
public enum ZoneChangesEntry {
    case page(ZoneChangePage)
    case failure(JSONValue)
}
