import StratusCloud

/// The zones as read, and what the Zones tab's effects report back.
enum ZonesMessage: Sendable {
    /// The database's zones (every tab shows the zone in use; the Zones tab lists them).
    case loaded(job: Int, scope: DatabaseScope, Result<[RecordZone], CloudKitError>)
    /// A zone was made or deleted; the result is the database's zones after it.
    case saved(job: Int, ZoneID, Result<[RecordZone], CloudKitError>)
    case deleted(job: Int, ZoneID, Result<[RecordZone], CloudKitError>)
    /// Records per type of a zone, for the Zones tab's bars.
    case typeCounts(ZoneID, token: String, scope: DatabaseScope, Result<[String: Int], CloudKitError>)
    /// The watch read zones that differ from the ones it read before.
    case watched(job: Int, scope: DatabaseScope, [RecordZone])
}
