import StratusCloud
import StratusEngine
import StratusModel

/// Zones and each database's change sequence, in a memory store's tables.
struct MemoryZoneStorage: ZoneStorage {
    let db: MemoryTransaction

    func find(_ zoneID: ZoneID, scope: DatabaseScope) throws -> ZoneRow? {
        let key = MemoryTables.ZoneKey(scope: scope, owner: zoneID.ownerName, name: zoneID.zoneName)
        return db.tables.zoneIDs[key].flatMap { db.tables.zones[$0]?.row }
    }

    func find(id: Int64) throws -> ZoneRow? { db.tables.zones[id]?.row }

    func all(scope: DatabaseScope, owner: String) throws -> [ZoneRow] {
        db.tables.zones.values.filter { $0.key.scope == scope && $0.key.owner == owner && $0.state == .live }
            .sorted { (Self.rank($0), $0.key.name) < (Self.rank($1), $1.key.name) }
            .map(\.row)
    }

    func changed(scope: DatabaseScope, owner: String, after sequence: Int64, limit: Int) throws -> [ZoneRow] {
        let zones = db.tables.zones.values.filter {
            $0.key.scope == scope && $0.key.owner == owner && $0.databaseSequence > sequence && $0.key.name != ZoneID.defaultZoneName
        }
        return zones.sorted { ($0.databaseSequence, $0.id) < ($1.databaseSequence, $1.id) }.prefix(limit).map(\.row)
    }

    func setSequences(zoneRowID: Int64, change: Int64, database: Int64) throws {
        db.tables.zones[zoneRowID]?.changeSequence = change
        db.tables.zones[zoneRowID]?.databaseSequence = database
    }

    func hasTombstones(zoneRowID: Int64) throws -> Bool { !(db.tables.tombstones[zoneRowID]?.isEmpty ?? true) }

    func setState(_ state: ZoneRow.State, databaseSequence: Int64, zoneRowID: Int64) throws {
        db.tables.zones[zoneRowID]?.state = state
        db.tables.zones[zoneRowID]?.databaseSequence = databaseSequence
    }

    func compact(zoneRowID: Int64, through point: Int64) throws -> Int {
        let before = db.tables.tombstones[zoneRowID]?.count ?? 0
        db.tables.tombstones[zoneRowID] = db.tables.tombstones[zoneRowID]?.filter { $0.value.sequence > point }
        db.tables.zones[zoneRowID]?.compactedSequence = point
        return before - (db.tables.tombstones[zoneRowID]?.count ?? 0)
    }

    @discardableResult
    func makeZone(_ zoneID: ZoneID, scope: DatabaseScope, sequenceScope: DatabaseScope) throws -> Bool {
        let existing = try find(zoneID, scope: scope)
        if existing?.state == .live { return false }
        let databaseSequence = try nextDatabaseSequence(scope: sequenceScope)
        if let existing, var zone = db.tables.zones[existing.id] {
            zone.state = .live
            zone.incarnation += 1
            zone.changeSequence = 0
            zone.compactedSequence = 0
            zone.databaseSequence = databaseSequence
            db.tables.zones[existing.id] = zone
        } else {
            insertZone(MemoryTables.ZoneKey(scope: scope, owner: zoneID.ownerName, name: zoneID.zoneName), databaseSequence: databaseSequence)
        }
        return true
    }

    func databaseSequence(scope: DatabaseScope) throws -> Int64 { db.tables.databaseSequences[scope] ?? 0 }

    func nextDatabaseSequence(scope: DatabaseScope) throws -> Int64 {
        db.tables.databaseSequences[scope, default: 0] += 1
        return db.tables.databaseSequences[scope, default: 0]
    }

    func eraseContents(zoneRowID: Int64, databaseSequence: Int64) throws {
        let shares = MemoryShareStorage(db: db)
        for share in try shares.live(zoneRowID: zoneRowID) {
            try shares.end(share.id, databaseSequence: databaseSequence)
        }
        for id in db.tables.recordNames[zoneRowID]?.values ?? [:].values { db.tables.records[id] = nil }
        db.tables.recordNames[zoneRowID] = nil
        db.changedRecords = true
        db.tables.tombstones[zoneRowID] = nil
    }

    /// The default zone before the others.
    private static func rank(_ zone: MemoryTables.Zone) -> Int { zone.key.name == ZoneID.defaultZoneName ? 0 : 1 }

    /// Adds a zone (a live one of that key must not exist) and returns its row id.
    @discardableResult
    func insertZone(_ key: MemoryTables.ZoneKey, databaseSequence: Int64) -> Int64 {
        if let id = db.tables.zoneIDs[key] { return id }
        db.tables.lastZoneID += 1
        let id = db.tables.lastZoneID
        db.tables.zones[id] = MemoryTables.Zone(id: id, key: key, databaseSequence: databaseSequence)
        db.tables.zoneIDs[key] = id
        return id
    }
}
