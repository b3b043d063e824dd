import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

extension CloudDatabase {
    /// How many records `query` matches, counted in the indexes without reading a record, when
    /// they answer it exactly: the planner's index covers the whole filter and the caller reads
    /// every record of the type in the zone. Nil when a record must be read to know (a term the
    /// index only narrows, a share or a role that shows some records and not others); the
    /// caller then counts by walking the result.
    ///
    /// The dashboard numbers its rows with this at once, where walking a million matches takes
    /// seconds.
    public func indexedCount(matching query: Query, inZoneWith zoneID: ZoneID = .default) throws -> Int? {
        try readAfterFaults(FaultCall(operation: .query, scope: scope, zoneNames: [zoneID.zoneName]), zone: zoneID) { _, db -> Int? in
            let catalog = try store.catalog(db)
            guard let type = catalog.type(named: query.recordType) else { return nil }
            var compiled = try CloudDatabase.compile(query, schema: type.schema, now: Date())
            // Order does not change a count; unsorted, the plan drives from the filter alone and
            // has no records lacking a sort field to add after its index.
            compiled.sorts = []
            let gate = AccessGate(self, db: db, catalog: catalog)
            let zone = try gate.zone(zoneID)
            guard try gate.readFilter(zone: zone, typeName: query.recordType) == nil else { return nil }
            let plan = QueryPlanner(type: type).plan(compiled)
            guard plan.residual(of: compiled.filter).terms.isEmpty else { return nil }
            let storage = try db.records.queryStorage(zoneRowID: zone.id, type: type)
            if Self.countsOneRowPerRecord(plan.driver, type: type) {
                return try storage.countIDs(of: plan.driver, upTo: .max)
            }
            return try storage.candidateIDs(of: plan.driver, stoppingAt: .max).count
        }
    }

    /// Whether the driver's index rows are one per matching record, so counting rows counts
    /// records: the type's records, or one value or a range of a single-valued field (a list
    /// has a row per element).
    private static func countsOneRowPerRecord(_ driver: QueryPlan.Driver, type: SchemaCatalog.TypeEntry) -> Bool {
        switch driver {
        case .typeScan, .range(_, _, _, false):
            return true
        case .values(let fieldID, let keys, false, _):
            return keys.count == 1 && type.fields.values.contains { $0.id == fieldID && !$0.type.isList }
        default:
            return false
        }
    }
}
