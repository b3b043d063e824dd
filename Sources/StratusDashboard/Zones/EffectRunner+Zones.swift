import Foundation
import StratusModel

/// The Zones tab's effects: the zone list, making and deleting zones, records per type.
extension EffectRunner {
    /// Loads, makes and deletes zones, and counts a zone's records by type.
    func executeZones(_ effect: Effect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .loadZones(let job, let scope):
            post(.zones(.loaded(job: job, scope: scope, capture { try database(scope).allRecordZones() })))

        case .createZone(let job, let zone, let scope):
            post(.zones(.saved(job: job, zone, capture {
                try database(scope).modifyRecordZones(saving: [zone])
                return try database(scope).allRecordZones()
            })))

        case .deleteZone(let job, let zone, let scope):
            post(.zones(.deleted(job: job, zone, capture {
                try database(scope).modifyRecordZones(deleting: [zone])
                return try database(scope).allRecordZones()
            })))

        case .loadZoneTypeCounts(let zone, let scope):
            post(.zones(.typeCounts(zone, scope: scope, capture { try database(scope).recordCountsByType(inZoneWith: zone) })))

        default:
            break
        }
    }
}
