import StratusEngine
import StratusCloud

/// Makes sure the zones a file's records name exist before anything is written: with
/// `--create-zones` the missing custom zones are made, otherwise the first missing one is a
/// clear error naming the zone and the way out, instead of one failure per record.
struct ZonePreparer {
    let database: any CloudDatabaseService
    let create: Bool

    func prepare(_ zones: [ZoneID]) throws {
        let existing = Set(try database.allRecordZones().map(\.zoneID))
        var missing: [ZoneID] = []
        for zone in zones where !zone.isDefault && !existing.contains(zone) && !missing.contains(zone) {
            missing.append(zone)
        }
        guard !missing.isEmpty else { return }
        guard create else {
            let names = missing.map { "'\($0.zoneName)'" }.joined(separator: ", ")
            let error = CloudKitError(.zoneNotFound, "The records name zone\(missing.count == 1 ? "" : "s") \(names), which the \(database.scope.name) database does not have.")
            throw CommandFailure.failed("\(error) Add --create-zones to make \(missing.count == 1 ? "it" : "them"), or run `stratus zones create NAME`.")
        }
        try database.modifyRecordZones(saving: missing)
    }
}
