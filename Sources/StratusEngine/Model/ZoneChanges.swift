/// One event of a zone's change playback.
public enum ZoneChange: Sendable {
    /// The record was made or changed since the token; this is its current state.
    case changed(Record)
    /// The record was deleted since the token.
    case deleted(RecordID, recordType: String)

    public var recordID: RecordID {
        switch self {
        case .changed(let record): return record.recordID
        case .deleted(let recordID, _): return recordID
        }
    }
}

/// A page of a zone's change playback, as `CKFetchRecordZoneChangesOperation` delivers it.
public struct ZoneChangesPage: Sendable {
    /// Changes in the order they were made; each record at most once.
    public var changes: [ZoneChange]
    /// The position after this page: pass it to fetch the next page, or later changes.
    public var changeToken: String
    /// Whether more changes follow this page.
    public var moreComing: Bool
}

/// A page of a database's zone-change playback, as `CKFetchDatabaseChangesOperation` delivers it.
public struct DatabaseChangesPage: Sendable {
    public var changedZoneIDs: [ZoneID]
    public var deletedZoneIDs: [ZoneID]
    public var purgedZoneIDs: [ZoneID]
    public var changeToken: String
    public var moreComing: Bool
}
