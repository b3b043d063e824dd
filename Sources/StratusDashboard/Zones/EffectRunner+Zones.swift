import Foundation
import StratusModel
import StratusCloud

/// The Zones tab's effects: the zone list, making and deleting zones, records per type.
extension EffectRunner {
    /// Loads, makes and deletes zones, and counts a zone's records by type.
    func executeZones(_ effect: ZonesEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job, let scope):
            post(.zones(.loaded(job: job, scope: scope, capture { try database(scope).allRecordZones() })))

        case .create(let job, let zone, let scope):
            post(.zones(.saved(job: job, zone, capture {
                try database(scope).modifyRecordZones(saving: [zone])
                return try database(scope).allRecordZones()
            })))

        case .delete(let job, let zone, let scope):
            post(.zones(.deleted(job: job, zone, capture {
                try database(scope).modifyRecordZones(deleting: [zone])
                return try database(scope).allRecordZones()
            })))

        case .typeCounts(let zone, let token, let scope):
            post(.zones(.typeCounts(zone, token: token, scope: scope, capture { try database(scope).recordCountsByType(inZoneWith: zone) })))

        case .watch(let job, let scope):
            let interval = ZonesTabState.pollInterval
            var last: [RecordZone]?
            while !isCancelled(job) {
                if last != nil { Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18) }
                if isCancelled(job) { return }
                last = pollZones(job: job, scope: scope, last: last, post: post)
            }
        }
    }

    /// One read of the zones watch: posts the zones when they differ from `last`. Returns what
    /// the next read compares with (`last` again after an error: a watch says nothing of a
    /// failed background read; the next read tries again).
    func pollZones(job: Int, scope: DatabaseScope, last: [RecordZone]?, post: (DashboardMessage) -> Void) -> [RecordZone]? {
        guard let zones = try? database(scope).allRecordZones() else { return last ?? [] }
        if zones != last { post(.zones(.watched(job: job, scope: scope, zones))) }
        return zones
    }
}
