import Foundation
import StratusModel

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

        case .typeCounts(let zone, let scope):
            post(.zones(.typeCounts(zone, scope: scope, capture { try database(scope).recordCountsByType(inZoneWith: zone) })))
        }
    }
}
