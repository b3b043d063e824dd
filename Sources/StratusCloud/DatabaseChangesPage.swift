/// A page of a database's zone-change playback, as `CKFetchDatabaseChangesOperation` delivers it.
public struct DatabaseChangesPage: Sendable {
    public var changedZoneIDs: [ZoneID]
    public var deletedZoneIDs: [ZoneID]
    public var purgedZoneIDs: [ZoneID]
    public var changeToken: String
    public var moreComing: Bool

    package init(changedZoneIDs: [ZoneID], deletedZoneIDs: [ZoneID], purgedZoneIDs: [ZoneID], changeToken: String, moreComing: Bool) {
        self.changedZoneIDs = changedZoneIDs
        self.deletedZoneIDs = deletedZoneIDs
        self.purgedZoneIDs = purgedZoneIDs
        self.changeToken = changeToken
        self.moreComing = moreComing
    }
}
