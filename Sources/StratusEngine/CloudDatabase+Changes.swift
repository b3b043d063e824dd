import Foundation
import StratusModel
import StratusCloud

extension CloudDatabase {
    /// The default page size of change playback, CloudKit Web Services' limit per response.
    public static let defaultChangesLimit = CloudKitLimits.defaultChangesLimit
    /// The largest page one playback call returns.
    public static let maximumChangesLimit = CloudKitLimits.maximumChangesLimit

    /// Plays back a zone's changes since `token` (nil: from the beginning), a page at a time.
    ///
    /// Each record changed since the token appears once, in its current state, in the order of
    /// its last change; each deletion appears with the record's type. The cost grows with the
    /// number of changes since the token, never with the length of the zone's history: both
    /// tables are read through an index on (zone, sequence) from the token onwards.
    ///
    /// `until` stops the playback at a later token of the zone: what changed between the two.
    /// A record changed again after `until` is not among them (its state at `until` is not kept).
    ///
    /// `includingChangedKeys` also reads which fields each record's last change touched
    /// (`ZoneChangesPage.changedKeys`); CloudKit's playback does not say it, and reading it
    /// costs about as much again per record, so callers ask for it.
    public func recordZoneChanges(
        inZoneWith zoneID: ZoneID, since token: String? = nil, until endToken: String? = nil,
        desiredKeys: [String]? = nil, resultsLimit: Int? = nil, includingChangedKeys: Bool = false
    ) throws -> ZoneChangesPage {
        try checkChangeFeed(zoneID: zoneID)
        let limit = min(max(resultsLimit ?? CloudDatabase.defaultChangesLimit, 1), CloudDatabase.maximumChangesLimit)
        return try readAfterFaults(FaultCall(operation: .zoneChanges, scope: scope, zoneNames: [zoneID.zoneName], token: token), zone: zoneID) { _, db in
            let gate = try gate(db)
            let zone = try gate.zone(zoneID)
            let visible = try gate.readFilter(zone: zone, typeName: nil)
            let start = try startSequence(token, zone: zone, in: db)
            let stop = try endToken.map { try startSequence($0, zone: zone, in: db) } ?? zone.changeSequence
            guard stop >= start else {
                throw CloudKitError(.invalidArguments, "The end token comes before the start token; give the earlier token first.")
            }
            let catalog = try store.catalog(db)
            // Both tables are read in sequence order and merged here (see ChangeFeedStorage).
            // Deletions are few and small, so they are read first; record rows stream.
            let deletions = try db.changeFeed.deletions(zoneRowID: zone.id, after: start, through: stop, limit: limit + 1)
            var changes: [ZoneChange] = []
            changes.reserveCapacity(min(limit, 1024))
            var last = start
            var moreComing = false
            var nextDeletion = 0
            /// Adds the deletions before `sequence` (nil: all the rest); false once the page is full.
            func addDeletions(before sequence: Int64?) -> Bool {
                while nextDeletion < deletions.count {
                    let deletion = deletions[nextDeletion]
                    if let sequence, deletion.sequence > sequence { break }
                    guard changes.count < limit else { return false }
                    changes.append(.deleted(RecordID(recordName: deletion.name, zoneID: zone.zoneID),
                                            recordType: catalog.typeNames[deletion.typeID] ?? "?"))
                    last = deletion.sequence
                    nextDeletion += 1
                }
                return true
            }
            var changedKeys: [String: [String]] = [:]
            let decoder = FieldDecoder()
            var typeName = (id: Int64.min, name: "?")
            // Records the caller may not see are skipped, so then the page reads on until it is full.
            try db.changeFeed.changedRecords(zoneRowID: zone.id, after: start, through: stop, limit: visible == nil ? limit + 1 : Int.max, includingChangedKeys: includingChangedKeys) { stored, keys in
                guard addDeletions(before: stored.sequence), changes.count < limit else {
                    moreComing = true
                    return false
                }
                last = stored.sequence
                if let visible, try !visible(stored) { return true }
                if typeName.id != stored.typeID { typeName = (stored.typeID, catalog.typeNames[stored.typeID] ?? "?") }
                changes.append(.changed(try stored.record(zoneID: zone.zoneID, typeName: typeName.name, desiredKeys: desiredKeys, decoder: decoder)))
                if let keys { changedKeys[stored.name] = ChangedKeys.decode(keys) }
                return true
            }
            if !moreComing, !addDeletions(before: nil) { moreComing = true }
            let end = moreComing ? last : stop
            var nextToken = ZoneChangeToken(scope: scope, zoneRowID: zone.id, incarnation: zone.incarnation, sequence: end)
            // A playback from no token pages through records older than the compaction point;
            // its pages' tokens say where it began, so they keep working (see ZoneChangeToken.basis).
            if end < zone.compactedSequence { nextToken.basis = zone.compactedSequence }
            return ZoneChangesPage(changes: changes, changeToken: nextToken.encoded(storeID: store.storeID), moreComing: moreComing,
                                   changedKeys: changedKeys)
        }
    }

    /// The zone's token for "now", without playback: one read.
    public func currentToken(for zoneID: ZoneID) throws -> String {
        try checkChangeFeed(zoneID: zoneID)
        return try store.read { db in token(for: try gate(db).zone(zoneID)) }
    }

    /// Lists the custom zones changed, deleted or purged since a database token (nil: ever).
    public func databaseChanges(since token: String? = nil, resultsLimit: Int? = nil) throws -> DatabaseChangesPage {
        try checkDatabaseFeed()
        let limit = min(max(resultsLimit ?? CloudDatabase.defaultChangesLimit, 1), CloudDatabase.maximumChangesLimit)
        return try readAfterFaults(FaultCall(operation: .databaseChanges, scope: scope, token: token)) { _, db in
            var start: Int64 = 0
            let current = try db.zones.databaseSequence(scope: sequenceScope)
            if let token {
                let decoded = try DatabaseChangeToken.decode(token, storeID: store.storeID)
                guard decoded.scope == scope else {
                    throw CloudKitError(.invalidArguments, "The database change token belongs to the \(decoded.scope.name) database, not the \(scope.name) database.")
                }
                guard decoded.sequence <= current else {
                    throw CloudKitError(.changeTokenExpired, "The database change token is ahead of the store (was the store replaced?); fetch from the beginning, without a token.")
                }
                start = decoded.sequence
            }
            let zones = try gate(db).changedZones(after: start, limit: limit + 1)
            let moreComing = zones.count > limit
            let page = zones.prefix(limit)
            let end = moreComing ? (page.last?.databaseSequence ?? start) : current
            return DatabaseChangesPage(
                changedZoneIDs: page.filter { $0.state == .live }.map(\.zoneID),
                deletedZoneIDs: page.filter { $0.state == .deleted }.map(\.zoneID),
                purgedZoneIDs: page.filter { $0.state == .purged }.map(\.zoneID),
                changeToken: DatabaseChangeToken(scope: scope, sequence: end).encoded(storeID: store.storeID),
                moreComing: moreComing
            )
        }
    }

    /// The database's token for "now", without playback.
    public func currentDatabaseToken() throws -> String {
        try checkDatabaseFeed()
        return try store.read { db in
            let current = try db.zones.databaseSequence(scope: sequenceScope)
            return DatabaseChangeToken(scope: scope, sequence: current).encoded(storeID: store.storeID)
        }
    }

    private func checkDatabaseFeed() throws {
        guard scope.hasChangeFeed else {
            throw CloudKitError(.invalidArguments, "The public database has no change feed in CloudKit; poll it with queries instead (for example sorted by modificationDate).")
        }
    }

    private func checkChangeFeed(zoneID: ZoneID) throws {
        try checkDatabaseFeed()
        guard !zoneID.isDefault else {
            throw CloudKitError(.invalidArguments, "The default zone has no change feed in CloudKit (only custom zones support fetching changes); fetch the changes of a custom zone.",
                                reason: .defaultZoneHasNoChangeFeed)
        }
    }

    private func startSequence(_ token: String?, zone: ZoneRow, in db: StoreTransaction) throws -> Int64 {
        guard let token else { return 0 }
        let decoded = try ZoneChangeToken.decode(token, storeID: store.storeID)
        guard decoded.scope == scope else {
            throw CloudKitError(.invalidArguments, "The change token belongs to the \(decoded.scope.name) database, not the \(scope.name) database.")
        }
        guard decoded.zoneRowID == zone.id else {
            let other = (try? db.zones.find(id: decoded.zoneRowID)).flatMap { $0 }.map { "'\($0.zoneID.zoneName)'" } ?? "another zone"
            throw CloudKitError(.invalidArguments, "The change token belongs to \(other), not '\(zone.zoneID.zoneName)'; use the token of the zone you ask about.")
        }
        guard decoded.incarnation == zone.incarnation else {
            throw CloudKitError(.changeTokenExpired, "Zone '\(zone.zoneID.zoneName)' was deleted and made again since this token was issued; discard what you cached and fetch from the beginning, without a token.")
        }
        guard decoded.sequence <= zone.changeSequence else {
            throw CloudKitError(.changeTokenExpired, "The change token is ahead of zone '\(zone.zoneID.zoneName)' (was the store replaced?); fetch from the beginning, without a token.")
        }
        guard decoded.sequence >= zone.compactedSequence || decoded.basis == zone.compactedSequence else {
            throw CloudKitError(.changeTokenExpired, "The change token is older than the history zone '\(zone.zoneID.zoneName)' keeps (it was compacted); discard what you cached and fetch from the beginning, without a token.")
        }
        return decoded.sequence
    }
}
