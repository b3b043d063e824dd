import Foundation
import StratusModel
import StratusCloud

/// One database of a store (public, private or shared) as one user sees it: the counterpart
/// of `CKDatabase`, with the same method names.
///
/// Calls are synchronous: each is one SQLite transaction taking microseconds to milliseconds.
/// Interfaces that must stay responsive call them from a background task.
public struct CloudDatabase: Sendable {
    public let store: Store
    public let scope: DatabaseScope
    /// Who acts through this value; what they reach is decided by `AccessGate`.
    public let caller: Caller
    /// The user record name that creates and modifies records through this value (empty for
    /// no user, who cannot write).
    public var user: String { caller.userRecordName ?? "" }
    /// The device acting through this value: notifications of changes it makes are not
    /// delivered back to it, as CloudKit excludes the originating device.
    public let device: String
    /// Whether calls meet the store's fault plan; off for the engine's and the server's own
    /// reads inside a call (see `withoutFaults`).
    public internal(set) var appliesFaults = true
    /// The front end this database serves, which the fault plan's `clients` match.
    public internal(set) var faultClient: FaultClient = .cli

    /// The device a database acts as when none is named.
    public static let defaultDevice = "this-store"

    init(store: Store, scope: DatabaseScope, caller: Caller, device: String = CloudDatabase.defaultDevice) {
        self.store = store
        self.scope = scope
        self.caller = caller
        self.device = device
    }

    /// The gate of one transaction of this database.
    func gate(_ db: StoreTransaction) throws -> AccessGate {
        AccessGate(self, db: db)
    }

    /// The most records or deletions one `modifyRecords` call takes, as CloudKit's guidance says.
    public static let maximumBatchSize = CloudKitLimits.maximumBatchSize
    /// The largest record, in bytes of field data, assets excluded.
    public static let maximumRecordSize = CloudKitLimits.maximumRecordSize

    // MARK: - Zones

    /// The live zones of this database, the default zone first.
    public func allRecordZones() throws -> [RecordZone] {
        try readAfterFaults(FaultCall(operation: .zones, scope: scope)) { _, db in
            let gate = try gate(db)
            return try gate.zones().map { zone in
                RecordZone(zoneID: zone.zoneID, currentToken: token(for: zone), recordCount: try gate.visibleRecordCount(in: zone))
            }
        }
    }

    /// How many records of each type a zone holds, by record type name (types with none are
    /// left out).
    ///
    /// One grouped count over the `(zone, type, modified)` index, never the record rows, so
    /// it stays cheap on a zone of a million records (the dashboard calls it on start to pick
    /// the busiest type). `zoneNotFound` when the zone does not exist.
    public func recordCountsByType(inZoneWith zoneID: ZoneID) throws -> [String: Int] {
        try store.read { db in
            let zone = try gate(db).zone(zoneID)
            return try db.records.countsByType(zoneRowID: zone.id)
        }
    }

    /// How the zone's records' last changes spread over time: `buckets` counts, oldest first,
    /// over equal slices from the zone's first change to its last (empty for an empty zone).
    /// One grouped pass over the `(zone, type, modified)` index, never the record rows, for the
    /// Changes tab's sparkline.
    public func changeActivity(inZoneWith zoneID: ZoneID, buckets: Int) throws -> [Int] {
        guard buckets > 0 else { return [] }
        return try store.read { db in
            let zone = try gate(db).zone(zoneID)
            return try db.records.modificationHistogram(zoneRowID: zone.id, buckets: buckets)
        }
    }

    /// Makes zones (idempotent for a zone that exists) and deletes zones with all their records.
    ///
    /// Custom zones exist only in the private database; the default zone cannot be deleted.
    /// `purging` marks deleted zones as purged in database changes, as when a user deletes an
    /// app's data.
    public func modifyRecordZones(saving: [ZoneID] = [], deleting: [ZoneID] = [], purging: Bool = false) throws {
        for zoneID in saving {
            if zoneID.isDefault { continue }
            guard scope.allowsCustomZones else {
                throw CloudKitError(scope == .shared ? .badDatabase : .invalidArguments,
                                    "Custom zones can only be made in the private database, not the \(scope.name) database (CloudKit's rule).")
            }
            if let problem = ZoneID.nameProblem(zoneID.zoneName) { throw CloudKitError(.invalidArguments, problem) }
        }
        for zoneID in deleting where zoneID.isDefault {
            throw CloudKitError(.invalidArguments, "The default zone cannot be deleted; delete its records instead.")
        }
        _ = try faults(FaultCall(operation: .zones, scope: scope, zoneNames: Set((saving + deleting).map(\.zoneName))))
        try store.write { db in
            let gate = try gate(db)
            for requested in saving where !requested.isDefault {
                try db.zones.makeZone(try gate.ownZoneID(requested), scope: scope, sequenceScope: sequenceScope)
            }
            for zoneID in deleting {
                if scope == .shared { throw CloudKitError(.badDatabase, "Zones of the shared database belong to their owners; leave a share instead of deleting its zone.") }
                let zone = try gate.zone(zoneID)
                try db.zones.eraseContents(zoneRowID: zone.id, databaseSequence: try nextDatabaseSequence(db))
                try db.zones.setState(purging ? .purged : .deleted, databaseSequence: try nextDatabaseSequence(db), zoneRowID: zone.id)
            }
        }
    }

    // MARK: - Shared helpers

    func token(for zone: ZoneRow) -> String {
        ZoneChangeToken(scope: scope, zoneRowID: zone.id, incarnation: zone.incarnation, sequence: zone.changeSequence)
            .encoded(storeID: store.storeID)
    }

    /// The next sequence of this database's change feed. The shared database counts with the
    /// private databases, whose zones it shows (see `SharedZoneFeed`).
    func nextDatabaseSequence(_ db: StoreTransaction) throws -> Int64 {
        try CloudDatabase.nextDatabaseSequence(scope: sequenceScope, in: db)
    }

    /// The scope whose counter orders this database's changes.
    var sequenceScope: DatabaseScope { scope == .shared ? .private : scope }

    static func nextDatabaseSequence(scope: DatabaseScope, in db: StoreTransaction) throws -> Int64 {
        try db.zones.nextDatabaseSequence(scope: scope)
    }
}
