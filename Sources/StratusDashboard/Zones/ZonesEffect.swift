import StratusCloud

/// Reading the zones, and the Zones tab's work.
enum ZonesEffect: Sendable {
    case load(job: Int, scope: DatabaseScope)
    case create(job: Int, zone: ZoneID, scope: DatabaseScope)
    case delete(job: Int, zone: ZoneID, scope: DatabaseScope)
    case typeCounts(zone: ZoneID, scope: DatabaseScope)
}
