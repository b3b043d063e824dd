import Foundation
import StratusCloud
import StratusEngine

/// `stratus pull`: walks a remote database and hands each page to the ``PullApplier``, keeping
/// the tokens it reaches in the ``PullState`` file after each page is committed.
///
/// Private and shared: `changes/database` from the kept token (all pages), then
/// `changes/zone` for each changed zone from its kept token (all pages, 200 a page). The
/// public database and the private default zone, which have no change feed: every record of
/// each record type, page by page; records of those types the store holds and the server no
/// longer has are deleted.
public struct ContainerPull {
    let remote: RemoteDatabase
    let store: Store
    let statePath: String
    var state: PullState
    var applier: PullApplier
    let events: PullEvents
    /// `--zone`: only this zone (the database token is then left where it was).
    let onlyZone: String?
    /// The record types read by query from the private default zone, which has no change feed.
    let defaultZoneTypes: [String]
    /// How throttling is waited out, for errors the client does not retry itself.
    let retry: RetryPolicy

    /// `state`: read from `statePath` (or new); `onlyZone`: `--zone`; `defaultZoneTypes`: the
    /// types read by query from the private default zone.
    public init(remote: RemoteDatabase, store: Store, statePath: String, state: PullState, includeAssets: Bool, onlyZone: String?,
                defaultZoneTypes: [String], retry: RetryPolicy, events: PullEvents) {
        self.remote = remote
        self.store = store
        self.statePath = statePath
        self.state = state
        self.applier = PullApplier(client: remote.client, includeAssets: includeAssets, events: events)
        self.events = events
        self.onlyZone = onlyZone
        self.defaultZoneTypes = defaultZoneTypes
        self.retry = retry
    }

    /// What the pull changed in the store so far.
    public var tally: PullTally { applier.tally }

    /// A remote call, with throttling waited out (and said so).
    private func remoteCall<T>(_ call: () throws -> T) throws -> T {
        try retry.retrying(call, waiting: events.waiting)
    }

    var scope: DatabaseScope { remote.scope }

    private var database: PullState.DatabaseState {
        get { state.databases[scope.name] ?? PullState.DatabaseState() }
        set { state.databases[scope.name] = newValue }
    }

    // MARK: Private and shared

    /// The private or shared database through its change feeds.
    public mutating func pullChanges() throws {
        let before = applier.tally
        var token = database.token
        var changed: [ZoneID] = [], deleted: [ZoneID] = []
        var page: DatabaseChangesPage
        repeat {
            page = try remoteCall { try remote.databaseChanges(since: token, resultsLimit: RemoteDatabase.batchLimit) }
            for zoneID in page.changedZoneIDs where !changed.contains(zoneID) { changed.append(zoneID) }
            deleted += page.deletedZoneIDs + page.purgedZoneIDs
            token = page.changeToken
        } while page.moreComing
        let only = onlyZone
        let wanted = { (zoneID: ZoneID) in only.map { $0 == zoneID.zoneName } ?? true }
        for zoneID in deleted where wanted(zoneID) && !changed.contains(zoneID) { try deleteZone(zoneID) }
        // The private database's default zone has no change feed (as in CloudKit): its records
        // are read by type, as the public database's are.
        if scope == .private, wanted(.default) {
            if defaultZoneTypes.isEmpty {
                events.note("the default zone has no change feed: its records are pulled only when --schema or --types names their types")
            } else {
                try pullByQuery(types: defaultZoneTypes, into: store.database(.private))
            }
        }
        for zoneID in changed where wanted(zoneID) { try pullZone(zoneID) }
        if onlyZone == nil {
            database.token = token
            try state.write(statePath)
        }
        gatherStatistics(since: before)
    }

    /// Every change of one zone since its kept token.
    private mutating func pullZone(_ zoneID: ZoneID) throws {
        let key = PullState.ZoneKey(zoneName: zoneID.zoneName, ownerName: zoneID.ownerName)
        let (local, localZone) = self.local(zoneID)
        var token = database.zones[key]
        let before = applier.tally
        var changedAny = false
        var zoneHeld = localZone.isDefault
        while true {
            let page: PulledPage
            do {
                page = try remoteCall { try remote.pullZoneChanges(inZoneWith: zoneID, since: token) }
            } catch let error as CloudKitError where error.code == .zoneNotFound {
                // Deleted while the pull went on: as in CloudKit, its records are gone with it,
                // here too, and its token means nothing any more.
                let held = try heldRecordCount(localZone, in: local)
                try deleteZone(zoneID)
                events.note("zone \(zoneID.zoneName) was deleted on the server during the pull: deleted here too"
                            + (held > 0 ? ", with its \(held) record\(held == 1 ? "" : "s")" : "") + ", and its token dropped")
                events.finished("zone \(zoneID.zoneName)", before, applier.tally)
                return
            } catch let error as CloudKitError where error.code == .changeTokenExpired && token != nil {
                // The zone was made again (or its history is gone): its records are fetched
                // from the beginning, into an emptied zone.
                events.note("zone \(zoneID.zoneName): its token expired (\(error.message)); pulling it again from the beginning")
                try empty(localZone, in: local)
                token = nil
                continue
            }
            // Made here once the server has answered for it (a zone deleted before its first
            // page is not made only to be deleted).
            if !zoneHeld {
                if try !local.allRecordZones().contains(where: { $0.zoneID == localZone }) {
                    try local.modifyRecordZones(saving: [localZone])
                    applier.tally.zonesNew += 1
                }
                zoneHeld = true
            }
            let failures = try applier.apply(page, to: local, zone: localZone)
            if !failures.isEmpty { throw PullRefusal(failures: failures, place: "zone \(zoneID.zoneName)") }
            changedAny = changedAny || !page.records.isEmpty || !page.deletions.isEmpty
            token = page.next
            database.zones[key] = token
            try state.write(statePath)
            if !page.moreComing { break }
        }
        if changedAny { applier.tally.zonesChanged += 1 }
        events.finished("zone \(zoneID.zoneName)", before, applier.tally)
    }

    /// A zone the remote deleted: deleted here (with its records) and its token forgotten.
    private mutating func deleteZone(_ zoneID: ZoneID) throws {
        let (local, localZone) = self.local(zoneID)
        if !localZone.isDefault, try local.allRecordZones().contains(where: { $0.zoneID == localZone }) {
            try local.modifyRecordZones(deleting: [localZone])
            applier.tally.zonesDeleted += 1
        }
        database.zones[PullState.ZoneKey(zoneName: zoneID.zoneName, ownerName: zoneID.ownerName)] = nil
        try state.write(statePath)
    }

    /// How many records the store holds in `zoneID` (0 when it has no such zone).
    private func heldRecordCount(_ zoneID: ZoneID, in local: CloudDatabase) throws -> Int {
        try local.allRecordZones().first { $0.zoneID == zoneID }?.recordCount ?? 0
    }

    /// Deletes every record of a zone (a custom zone is deleted and made again).
    private mutating func empty(_ zoneID: ZoneID, in local: CloudDatabase) throws {
        if zoneID.isDefault {
            var names: [RecordID] = []
            var page: ZoneChangesPage
            var token: String?
            repeat {
                page = try local.recordZoneChanges(inZoneWith: zoneID, since: token, desiredKeys: [], resultsLimit: nil)
                for case .changed(let record) in page.changes { names.append(record.recordID) }
                token = page.changeToken
            } while page.moreComing
            _ = try applier.delete(names, from: local)
        } else {
            try local.modifyRecordZones(deleting: [zoneID])
            try local.modifyRecordZones(saving: [zoneID])
        }
    }

    /// Where a remote zone goes here: a private zone into the store owner's private database;
    /// a shared zone into its owner's private database (a local user of that record name).
    private func local(_ zoneID: ZoneID) -> (CloudDatabase, ZoneID) {
        let owner = scope == .shared ? zoneID.ownerName : nil
        return (store.database(.private, user: owner), ZoneID(zoneName: zoneID.zoneName))
    }

    // MARK: By query

    /// The public database, type by type.
    public mutating func pullPublic(types: [String]) throws {
        let before = applier.tally
        try pullByQuery(types: types, into: store.database(.public))
        gatherStatistics(since: before)
    }

    /// The store was written a page at a time: when the pull wrote records, the planner's
    /// statistics once, at its end (PostgreSQL; best effort, autovacuum gathers them later).
    private func gatherStatistics(since before: PullTally) {
        let written = applier.tally.recordsNew + applier.tally.recordsChanged + applier.tally.recordsDeleted
        guard written > before.recordsNew + before.recordsChanged + before.recordsDeleted else { return }
        try? store.gatherPlannerStatistics()
    }

    /// Every record of each type in the default zone, queried page by page; records of those
    /// types held here and no longer on the server are deleted.
    private mutating func pullByQuery(types: [String], into local: CloudDatabase) throws {
        for type in types {
            let before = applier.tally
            var seen = Set<String>()
            var marker: String?
            repeat {
                let page = try remoteCall { try remote.pullRecords(ofType: type, continuing: marker) }
                seen.formUnion(page.records.map(\.recordName))
                let failures = try applier.apply(page, to: local, zone: .default)
                if !failures.isEmpty { throw PullRefusal(failures: failures, place: "type \(type)") }
                marker = page.next
            } while marker != nil
            let gone = try heldNames(ofType: type, in: local).subtracting(seen).sorted()
            let failures = try applier.delete(gone.map { RecordID(recordName: $0) }, from: local)
            if !failures.isEmpty { throw PullRefusal(failures: failures, place: "type \(type)") }
            events.finished("type \(type)", before, applier.tally)
        }
    }

    /// The names of the store's public records of `type`.
    private func heldNames(ofType type: String, in local: CloudDatabase) throws -> Set<String> {
        guard try store.recordType(named: type) != nil else { return [] }
        var names = Set<String>()
        var page = try local.records(matching: Query(recordType: type), inZoneWith: .default, desiredKeys: [], resultsLimit: 400)
        while true {
            names.formUnion(page.records.map(\.recordName))
            guard let cursor = page.cursor else { return names }
            page = try local.records(continuingMatchFrom: cursor, desiredKeys: [], resultsLimit: 400)
        }
    }
}
