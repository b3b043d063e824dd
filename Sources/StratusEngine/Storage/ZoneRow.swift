import StratusCloud

/// A stored zone: its identity, incarnation and change counters.
package struct ZoneRow: Sendable {
    package enum State: Int {
        case live = 0
        case deleted = 1
        case purged = 2
    }

    package var id: Int64
    var scope: DatabaseScope
    /// The zone as the caller names it: a zone of your own private database has the owner
    /// `__defaultOwner__`; a zone shared with you has its owner's user record name.
    var zoneID: ZoneID
    /// The user record name in the row: the private database's owner (`__defaultOwner__` in
    /// the public database).
    var ownerRecordName: String
    var incarnation: Int64
    package var changeSequence: Int64
    var databaseSequence: Int64
    package var state: State
    /// The history before this sequence was compacted away: tokens older than it expire.
    var compactedSequence: Int64

    /// The zone as `zoneID` names it for its viewer.
    func named(_ zoneID: ZoneID) -> ZoneRow {
        var copy = self
        copy.zoneID = zoneID
        return copy
    }

    /// Every stored property: a storage backend makes these from its rows.
    package init(id: Int64, scope: DatabaseScope, zoneID: ZoneID, ownerRecordName: String, incarnation: Int64, changeSequence: Int64, databaseSequence: Int64, state: State, compactedSequence: Int64) {
        self.id = id
        self.scope = scope
        self.zoneID = zoneID
        self.ownerRecordName = ownerRecordName
        self.incarnation = incarnation
        self.changeSequence = changeSequence
        self.databaseSequence = databaseSequence
        self.state = state
        self.compactedSequence = compactedSequence
    }
}
