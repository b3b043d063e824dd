import StratusCloud

/// Reading the zones, and the Zones tab's work.
enum ZonesEffect: Sendable {
    case load(job: Int, scope: DatabaseScope)
    case create(job: Int, zone: ZoneID, scope: DatabaseScope)
    case delete(job: Int, zone: ZoneID, scope: DatabaseScope)
    /// Records per type of a zone, as of its token `token`.
    case typeCounts(zone: ZoneID, token: String, scope: DatabaseScope)
    /// Reads the zones again and again while the dashboard runs, reporting only a change
    /// (another process's writes move the counts and tokens).
    case watch(job: Int, scope: DatabaseScope)
}
