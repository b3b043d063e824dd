/// A page of a zone's change playback, as `CKFetchRecordZoneChangesOperation` delivers it.
public struct ZoneChangesPage: Sendable {
    /// Changes in the order they were made; each record at most once.
    public var changes: [ZoneChange]
    /// The position after this page: pass it to fetch the next page, or later changes.
    public var changeToken: String
    /// Whether more changes follow this page.
    public var moreComing: Bool
    /// For each changed record of the page (by name), the fields its last change set or
    /// removed (all of them when that change made it); absent where not known (a record
    /// restored by an import). A record changed several times since the token shows its last
    /// change's keys: its whole current state is in `changes` either way. Filled only when the
    /// playback was asked `includingChangedKeys`.
    public var changedKeys: [String: [String]] = [:]

    package init(changes: [ZoneChange], changeToken: String, moreComing: Bool, changedKeys: [String: [String]] = [:]) {
        self.changes = changes
        self.changeToken = changeToken
        self.moreComing = moreComing
        self.changedKeys = changedKeys
    }
}
