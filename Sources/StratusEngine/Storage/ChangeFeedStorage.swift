import StratusCloud

/// A zone's change feed as stored: its deletions and its changed records, each read in
/// sequence order. The two are read apart and merged by the caller (a backend's single sorted
/// union can cost more than the two reads).
package protocol ChangeFeedStorage {
    /// The zone's deletions with a sequence in (`start`, `stop`], oldest first, at most `limit`.
    /// Deletions are few and small, so they are read whole.
    func deletions(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int) throws -> [ChangeFeedDeletion]

    /// Streams the zone's records last changed in (`start`, `stop`], oldest change first, at
    /// most `limit`, until `body` returns false. With `includingChangedKeys`, `body` also gets
    /// the record's changed keys (`ChangedKeys.encode`d; nil when unknown), which costs about
    /// as much again per record.
    func changedRecords(zoneRowID: Int64, after start: Int64, through stop: Int64, limit: Int, includingChangedKeys: Bool,
                        _ body: (StoredRecord, _ changedKeys: String?) throws -> Bool) throws
}

/// A deleted record as the change feed lists it.
package struct ChangeFeedDeletion {
    package var sequence: Int64
    package var name: String
    package var typeID: Int64

    /// Every stored property: a storage backend makes these from its rows.
    package init(sequence: Int64, name: String, typeID: Int64) {
        self.sequence = sequence
        self.name = name
        self.typeID = typeID
    }
}
