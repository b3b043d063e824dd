import Foundation
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing
import StratusCloud

/// Without `--type`, the Query tab starts on the record type with the most records in the
/// zone (ties: the first by name), from the engine's grouped count.
@Suite struct DefaultRecordTypeTests {
    static func save(_ store: Store, zone: String, _ counts: [(String, Int)]) throws {
        let zoneID = ZoneID(zoneName: zone)
        let database = store.database(.private)
        if !zoneID.isDefault { try database.modifyRecordZones(saving: [zoneID]) }
        let records = counts.flatMap { type, count in
            (0..<count).map { index in
                var record = Record(recordType: type, recordID: RecordID(recordName: "\(type.lowercased())-\(index)", zoneID: zoneID))
                record["label"] = .string("\(type) \(index)")
                return record
            }
        }
        _ = try database.modifyRecords(saving: records).savedRecords()
    }

    @Test func startsOnTheBusiestTypeOfTheZone() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            // Alpha comes first by name and Middle has the most records store-wide, but
            // Zeta has the most in this zone.
            try Self.save(store, zone: "Counted", [("Alpha", 2), ("Zeta", 5), ("Middle", 1)])
            try Self.save(store, zone: "Elsewhere", [("Middle", 9)])
        }
        #expect(harness.state.query.recordType == "Zeta")
        #expect(harness.state.query.records.count == 5)
        #expect(harness.state.query.recordCountsJob == nil)
        #expect(harness.state.jobs.isEmpty)
        #expect(harness.screen().contains("Counted ▸ Zeta"))
    }

    @Test func tiesGoToTheFirstByName() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            try Self.save(store, zone: "Counted", [("Gamma", 3), ("Beta", 3), ("Alpha", 1)])
        }
        #expect(harness.state.query.recordType == "Beta")
        #expect(QueryTab.busiestRecordType(["b": 3, "a": 3, "c": 4, "Users": 10]) == "c")
        #expect(QueryTab.busiestRecordType(["Users": 1]) == nil)
    }

    @Test func anEmptyZoneFallsBackToTheFirstType() throws {
        let harness = try Harness(zone: "Empty", recordType: nil, demo: false) { store in
            try Self.save(store, zone: "Counted", [("Zeta", 2), ("Beta", 1)])
            try store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Empty")])
        }
        #expect(harness.state.query.recordType == "Beta")
        #expect(harness.state.query.hasRun)
    }

    /// Switching to a zone with no records of the type in use moves to the zone's busiest type;
    /// a zone that has some keeps it.
    @Test func aZoneWithoutTheTypeInUseShowsItsBusiestType() throws {
        let harness = try Harness(zone: "Counted", recordType: "Note", demo: false) { store in
            try Self.save(store, zone: "Counted", [("Note", 2)])
            try Self.save(store, zone: "Travel", [("Trip", 4), ("Place", 2)])
            try Self.save(store, zone: "Mixed", [("Note", 1), ("Trip", 9)])
        }
        #expect(harness.state.query.records.count == 2)
        harness.handle(Dashboard.switchZone(&harness.state, to: "Travel"))
        #expect(harness.state.query.recordType == "Trip")
        #expect(harness.state.query.records.count == 4)
        #expect(harness.state.status?.text == "No Note records in Travel: showing Trip, its busiest type.")
        harness.handle(Dashboard.switchZone(&harness.state, to: "Mixed"))
        #expect(harness.state.query.recordType == "Trip")
        harness.state.query.recordType = "Note"
        harness.handle(Dashboard.switchZone(&harness.state, to: "Counted"))
        #expect(harness.state.query.recordType == "Note")
        #expect(harness.state.query.records.count == 2)
        #expect(harness.state.jobs.isEmpty)
    }

    @Test func aTypeGivenOnTheCommandLineIsKept() throws {
        let harness = try Harness(zone: "Counted", recordType: "Alpha", demo: false) { store in
            try Self.save(store, zone: "Counted", [("Alpha", 1), ("Zeta", 5)])
        }
        #expect(harness.state.query.recordType == "Alpha")
        #expect(harness.state.query.recordCountsJob == nil)
    }

    /// The schema may come after the counts or before; either way one query runs, on the
    /// busiest type.
    @Test func schemaBeforeOrAfterTheCountsRunsOneQuery() throws {
        let harness = try Harness(zone: "Counted", recordType: nil, demo: false) { store in
            try Self.save(store, zone: "Counted", [("Alpha", 1), ("Zeta", 2)])
        }
        for schemaFirst in [true, false] {
            var state = DashboardState(storePath: harness.state.storePath, zone: ZoneID(zoneName: "Counted"))
            let effects = Dashboard.start(&state)
            var schemaJob = 0
            var countsJob = 0
            for effect in effects {
                if case .schema(.load(let job)) = effect { schemaJob = job }
                if case .query(.recordCounts(let job, _, _)) = effect { countsJob = job }
            }
            let schema = DashboardMessage.schema(.loaded(job: schemaJob, .success(SchemaSnapshot(
                types: try harness.store.recordTypes(), environment: .development))))
            let counts = DashboardMessage.query(.recordCounts(job: countsJob, .success(["Alpha": 1, "Zeta": 2])))
            let first = Dashboard.update(&state, schemaFirst ? schema : counts)
            let second = Dashboard.update(&state, schemaFirst ? counts : schema)
            let queries = (first + second).filter { if case .query(.run) = $0 { return true }; return false }
            #expect(queries.count == 1, "schema first: \(schemaFirst)")
            #expect(state.query.recordType == "Zeta")
        }
    }
}
