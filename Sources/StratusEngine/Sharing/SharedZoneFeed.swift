import StratusCloud


/// A user's shared database: the zones of other users' private databases that shares the user
/// accepted reach, and when each appeared, changed or went away.
///
/// The shared database keeps no zones of its own. Its sequence is the private databases' one:
/// a zone's `db_seq` moves when its records change, a participant row's when the user's access
/// to it changes (accepted, removed, share deleted), so one token orders both.
struct SharedZoneFeed {
    let user: String
    let db: StoreTransaction

    /// The zones the user sees now, by name and owner.
    func liveZones() throws -> [ZoneRow] {
        try zoneStates().filter { $0.state == .live }.sorted { ($0.zoneID.zoneName, $0.zoneID.ownerName) < ($1.zoneID.zoneName, $1.zoneID.ownerName) }
    }

    /// The zones that appeared, changed or went away after `sequence`, oldest first; a zone
    /// the user can no longer see is `deleted`.
    func changed(after sequence: Int64, limit: Int) throws -> [ZoneRow] {
        Array(try zoneStates().filter { $0.databaseSequence > sequence }.sorted { $0.databaseSequence < $1.databaseSequence }.prefix(limit))
    }

    /// One row per zone the user ever took part in a share of, its state and sequence as the
    /// user's shared database sees it.
    private func zoneStates() throws -> [ZoneRow] {
        var zones: [Int64: ZoneRow] = [:]
        for access in try db.shares.zoneAccess(user: user) {
            var zone = access.zone
            let accepted = access.status == .accepted && access.shareIsLive && zone.state == .live
            let accessSequence = access.accessSequence
            zone.databaseSequence = accepted ? max(zone.databaseSequence, accessSequence) : accessSequence
            zone.state = accepted ? .live : .deleted
            if let known = zones[zone.id] {
                if known.state == .live && zone.state != .live { zone.state = .live }
                zone.databaseSequence = max(known.databaseSequence, zone.databaseSequence)
            }
            zones[zone.id] = zone
        }
        return Array(zones.values)
    }
}
