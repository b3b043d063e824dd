/// A page of a zone's change playback, as `CKFetchRecordZoneChangesOperation` delivers it.
public struct ZoneChangesPage: Sendable {
    /// Changes in the order they were made; each record at most once.
    public var changes: [ZoneChange]
    /// The position after this page: pass it to fetch the next page, or later changes.
    public var changeToken: String
    /// Whether more changes follow this page.
    public var moreComing: Bool
}
