/// A record zone as `allRecordZones()` lists it.
public struct RecordZone: Hashable, Sendable {
    public var zoneID: ZoneID
    /// Whether atomic batches are all-or-nothing here (custom zones only).
    public var isAtomic: Bool { !zoneID.isDefault }
    /// The zone's current change token, printable.
    public var currentToken: String
    /// How many records the zone holds now.
    public var recordCount: Int

    public init(zoneID: ZoneID, currentToken: String, recordCount: Int) {
        self.zoneID = zoneID
        self.currentToken = currentToken
        self.recordCount = recordCount
    }
}
