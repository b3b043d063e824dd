import StratusCloud
import StratusModel

/// Zones (identity, incarnation, change counters, state) and each database's change sequence,
/// which orders its change feed: a database change token is a position in it.
package protocol ZoneStorage {
    /// The zone with this ID in `scope`, live or not.
    func find(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow?

    /// Says which zone a read transaction that has read nothing yet will ``find(_:scope:)``
    /// first, so a backend whose every statement is a round trip can read it with the
    /// transaction's opening statement.
    func prefetch(_ zoneID: ZoneID, scope: DatabaseScope)

    /// The zone with this row id, live or not.
    func find(id: Int64) throws -> ZoneRow?

    /// The live zones of `owner` in `scope`, the default zone first.
    func all(scope: DatabaseScope, owner: String) throws -> [ZoneRow]

    /// Zones of `owner` whose database sequence is past `sequence`, oldest change first.
    func changed(scope: DatabaseScope, owner: String, after sequence: Int64, limit: Int) throws -> [ZoneRow]

    /// Where the zone's change feed and the database's feed stand after a write to the zone.
    func setSequences(zoneRowID: Int64, change: Int64, database: Int64) throws

    /// Whether the zone holds any deletions (a zone without any skips clearing them on saves).
    func hasTombstones(zoneRowID: Int64) throws -> Bool

    /// Marks a zone deleted or purged at this position of the database's change feed.
    func setState(_ state: ZoneRow.State, databaseSequence: Int64, zoneRowID: Int64) throws

    /// Forgets the zone's deletions up to `point` and moves its history's start there; returns
    /// how many deletions were dropped.
    func compact(zoneRowID: Int64, through point: Int64) throws -> Int

    /// Makes a custom zone, or brings a deleted one back as a new incarnation (old tokens then
    /// expire), at the next sequence of `sequenceScope`'s feed; a live zone stays as it is.
    /// Returns whether it made or revived one.
    @discardableResult
    func makeZone(_ zoneID: ZoneID, scope: DatabaseScope, sequenceScope: DatabaseScope) throws -> Bool

    /// Where the feed of `scope` stands now.
    func databaseSequence(scope: DatabaseScope) throws -> Int64

    /// Moves the feed of `scope` on by one and returns the new position.
    func nextDatabaseSequence(scope: DatabaseScope) throws -> Int64

    /// Deletes everything a zone holds (records, their index rows, its deletions) and ends its
    /// shares (`databaseSequence` orders their participants' loss of access in their shared
    /// databases). The zone itself stays so database changes can report the deletion.
    func eraseContents(zoneRowID: Int64, databaseSequence: Int64) throws
}

extension ZoneStorage {
    /// Nothing to gain where a statement costs no round trip.
    package func prefetch(_ zoneID: ZoneID, scope: DatabaseScope) {}

    /// Sets each zone's change sequence after a write, each with the next sequence of
    /// `sequenceScope`'s database feed (in zone order, so database changes list them in a
    /// stable order).
    func advance(_ sequences: [Int64: Int64], sequenceScope: DatabaseScope) throws {
        for (zoneRowID, sequence) in sequences.sorted(by: { $0.key < $1.key }) {
            let databaseSequence = try nextDatabaseSequence(scope: sequenceScope)
            try setSequences(zoneRowID: zoneRowID, change: sequence, database: databaseSequence)
        }
    }

    /// ``makeZone(_:scope:sequenceScope:)``'s rule, for a backend to implement it with: a live
    /// zone stays as it is (false); otherwise the next sequence of `sequenceScope`'s feed goes to
    /// `revive` for a deleted zone (a new incarnation) or to `insert` for a new one (true).
    package func makeZone(_ zoneID: ZoneID, scope: DatabaseScope, sequenceScope: DatabaseScope,
                          revive: (_ zone: ZoneRow, _ databaseSequence: Int64) throws -> Void,
                          insert: (_ databaseSequence: Int64) throws -> Void) throws -> Bool {
        let existing = try find(zoneID, scope: scope)
        if existing?.state == .live { return false }
        let databaseSequence = try nextDatabaseSequence(scope: sequenceScope)
        if let existing { try revive(existing, databaseSequence) } else { try insert(databaseSequence) }
        return true
    }

    /// The live zone with this ID, or `zoneNotFound`.
    func live(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow {
        guard let zone = try find(zoneID, scope: scope), zone.state == .live else {
            throw CloudKitError(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist in the \(scope.name) database.",
                                reason: .zoneNotFound(zoneName: zoneID.zoneName, database: scope))
        }
        return zone
    }
}
