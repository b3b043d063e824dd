import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Turns the record changes of one `modifyRecords` transaction into notification rows, in that
/// same transaction.
///
/// The write path calls `recordSaved` after each record row is written and `recordDeleted`
/// after each record (cascades included) is erased, then `finish` once. A store without
/// subscriptions costs one single-row read per batch; otherwise each change evaluates only the
/// query subscriptions on its record type, against the record's state before and after.
struct SubscriptionNotifier {
    private let database: CloudDatabase
    private let db: StoreTransaction
    private let catalog: SchemaCatalog
    private var subscriptions: SubscriptionIndex.Scoped?
    /// Fires-once subscriptions that fired in this transaction (already deleted).
    private var spent: Set<Int64> = []
    /// Zones this transaction changed, with the record types it changed in each.
    private var touched: [Int64: (zone: ZoneRow, types: Set<String>)] = [:]
    private var touchedOrder: [Int64] = []
    private let now: Date
    private let nowMilliseconds: Int64
    /// Filters of predicates that use now(), compiled with this transaction's time.
    private var timedFilters: [Int64: QueryFilter?] = [:]
    /// The shared database's subscriptions (participants' database subscriptions fire when a
    /// zone shared with them changes), loaded when a shared zone is touched.
    private var sharedSubscriptions: SubscriptionIndex.Scoped??
    /// Per public-database subscriber, the gate that says what they may read.
    private var readers: [String: AccessGate] = [:]

    init(database: CloudDatabase, db: StoreTransaction, catalog: SchemaCatalog, now: Date) throws {
        self.database = database
        self.db = db
        self.catalog = catalog
        self.now = now
        nowMilliseconds = FieldValue.milliseconds(now)
        // Changes land in the zone's own database: a participant's write through the shared
        // database is a change of the owner's private zone.
        subscriptions = try SubscriptionIndex.current(store: database.store, scope: database.sequenceScope, catalog: catalog, in: db)
    }

    /// After a record row was inserted or updated: `record` is the new state, `previous` and
    /// `previousFields` the state before (nil for a new record).
    mutating func recordSaved(_ record: Record, zone: ZoneRow, previous: StoredRecord?, previousFields: [String: FieldValue]) throws {
        guard let subscriptions else { return }
        touch(zone, type: record.recordType)
        guard let group = subscriptions.queries[record.recordType] else { return }
        let after = SavedRecordState(record: record)
        let before = previous.map { LoadedRecord(stored: $0, fields: previousFields) }
        let states: [any FilterableRecord] = before.map { [$0, after] } ?? [after]
        for index in group.guards.candidates(states) {
            let entry = group.entries[index]
            guard try applies(entry, zone: zone, recordType: record.recordType, creator: record.creatorUserRecordName) else { continue }
            guard let filter = compiledFilter(entry) else { continue }
            let matchedBefore = before.map(filter.matches) ?? false
            let matchesNow = filter.matches(after)
            let reason: CloudNotification.Reason
            switch (matchedBefore, matchesNow) {
            case (false, true): reason = .recordCreated
            case (true, true): reason = .recordUpdated
            case (true, false): reason = .recordDeleted
            case (false, false): continue
            }
            try fire(entry, reason: reason, recordName: record.recordName, recordType: record.recordType, zone: zone,
                     fields: record.fields)
        }
    }

    /// After a record was erased (asked for, or cascaded by a DELETE_SELF reference).
    mutating func recordDeleted(_ victim: StoredRecord, zone: ZoneRow) throws {
        guard let subscriptions, let typeName = catalog.typeNames[victim.typeID] else { return }
        touch(zone, type: typeName)
        guard let group = subscriptions.queries[typeName] else { return }
        let last = LoadedRecord(stored: victim, fields: try victim.fields())
        for index in group.guards.candidates([last]) {
            let entry = group.entries[index]
            guard try applies(entry, zone: zone, recordType: typeName, creator: victim.createdBy), let filter = compiledFilter(entry),
                  filter.matches(last) else { continue }
            let fields = last.fields
            try fire(entry, reason: .recordDeleted, recordName: victim.name, recordType: typeName, zone: zone, fields: fields)
        }
    }

    /// Writes one notification per zone subscription whose zone changed and one per database
    /// subscription whose database changed (in a custom zone) in this transaction.
    mutating func finish() throws {
        guard let subscriptions, !touched.isEmpty else { return }
        for entry in subscriptions.zones {
            guard let zoneID = entry.subscription.zoneID else { continue }
            for rowID in touchedOrder {
                guard let change = touched[rowID], change.zone.zoneID.zoneName == zoneID.zoneName, owns(entry, change.zone),
                      entry.subscription.recordType.map(change.types.contains) ?? true else { continue }
                try write(entry, type: .recordZone, reason: nil, zoneID: zoneID, recordName: nil, recordType: nil, fields: [:])
            }
        }
        for entry in subscriptions.databases {
            let fires = touchedOrder.contains { rowID in
                guard let change = touched[rowID], owns(entry, change.zone) else { return false }
                // The default zone of the private database takes no part in database subscriptions.
                if change.zone.scope == .private, change.zone.zoneID.isDefault { return false }
                return entry.subscription.recordType.map(change.types.contains) ?? true
            }
            if fires {
                try write(entry, type: .database, reason: nil, zoneID: nil, recordName: nil, recordType: nil, fields: [:])
            }
        }
        try notifyParticipants()
    }

    /// Fires the shared-database subscriptions of the users a touched private zone is shared
    /// with (and who accepted), once per subscription.
    private mutating func notifyParticipants() throws {
        var sharedZones: [ZoneRow] = []
        for zone in touchedOrder.compactMap({ touched[$0]?.zone }) where zone.scope == .private && !zone.zoneID.isDefault {
            if try db.shares.zoneIsShared(zone.id) { sharedZones.append(zone) }
        }
        guard !sharedZones.isEmpty else { return }
        if sharedSubscriptions == nil {
            sharedSubscriptions = .some(try SubscriptionIndex.current(store: database.store, scope: .shared, catalog: catalog, in: db))
        }
        guard let shared = sharedSubscriptions ?? nil else { return }
        var participants: Set<String> = []
        for zone in sharedZones { participants.formUnion(try db.shares.acceptedUsers(zoneRowID: zone.id)) }
        for entry in shared.databases where participants.contains(entry.owner) {
            let types = sharedZones.reduce(into: Set<String>()) { $0.formUnion(touched[$1.id]?.types ?? []) }
            guard entry.subscription.recordType.map(types.contains) ?? true else { continue }
            try write(entry, scope: .shared, type: .database, reason: nil, zoneID: nil, recordName: nil, recordType: nil, fields: [:])
        }
    }

    /// Whether a subscription of the zone's own database belongs to someone who sees the zone:
    /// in the private database, its owner only.
    private func owns(_ entry: SubscriptionIndex.Entry, _ zone: ZoneRow) -> Bool {
        zone.scope != .private || entry.owner == zone.ownerRecordName
    }

    // MARK: - Private

    private mutating func touch(_ zone: ZoneRow, type: String) {
        if touched[zone.id] == nil {
            touched[zone.id] = (zone, [type])
            touchedOrder.append(zone.id)
        } else {
            touched[zone.id]?.types.insert(type)
        }
    }

    private mutating func compiledFilter(_ entry: SubscriptionIndex.Entry) -> QueryFilter? {
        guard entry.usesNow else { return entry.filter }
        if let known = timedFilters[entry.rowID] { return known }
        guard case .query(let recordType, let format, let arguments, _, _) = entry.subscription.kind else { return nil }
        let filter = SubscriptionIndex.compile(format, arguments, recordType: recordType,
                                               schema: catalog.type(named: recordType)?.schema, now: now)
        timedFilters[entry.rowID] = filter
        return filter
    }

    /// Whether a query subscription may fire on a change: its zone, and a subscriber who may
    /// see the record (the private database's owner; in the public database, READ on it).
    private mutating func applies(_ entry: SubscriptionIndex.Entry, zone: ZoneRow, recordType: String, creator: String?) throws -> Bool {
        guard !spent.contains(entry.rowID), owns(entry, zone) else { return false }
        if let zoneID = entry.subscription.zoneID, zoneID.zoneName != zone.zoneID.zoneName { return false }
        if zone.scope == .public {
            let reader = readers[entry.owner] ?? AccessGate(scope: .public, caller: .user(entry.owner), db: db, catalog: catalog)
            readers[entry.owner] = reader
            return try reader.mayRead(recordType: recordType, creator: creator)
        }
        return true
    }

    private mutating func fire(_ entry: SubscriptionIndex.Entry, reason: CloudNotification.Reason, recordName: String, recordType: String,
                               zone: ZoneRow, fields: [String: FieldValue]) throws {
        let options = entry.subscription.querySubscriptionOptions
        let wanted: QuerySubscriptionOptions
        switch reason {
        case .recordCreated: wanted = .firesOnRecordCreation
        case .recordUpdated: wanted = .firesOnRecordUpdate
        case .recordDeleted: wanted = .firesOnRecordDeletion
        }
        guard options.contains(wanted) else { return }
        var carried: [String: FieldValue] = [:]
        for key in entry.subscription.notificationInfo?.desiredKeys ?? [] {
            if let value = fields[key] { carried[key] = value }
        }
        try write(entry, type: .query, reason: reason, zoneID: zone.zoneID, recordName: recordName, recordType: recordType, fields: carried)
        if options.contains(.firesOnce) {
            spent.insert(entry.rowID)
            try db.subscriptions.delete(rowID: entry.rowID)
        }
    }

    private func write(_ entry: SubscriptionIndex.Entry, scope: DatabaseScope? = nil, type: CloudNotification.NotificationType, reason: CloudNotification.Reason?,
                       zoneID: ZoneID?, recordName: String?, recordType: String?, fields: [String: FieldValue]) throws {
        let info = entry.subscription.notificationInfo
        let display = info.map { info in
            NotificationDisplay.encode(alertBody: info.alertBody, title: info.title, subtitle: info.subtitle, category: info.category)
        } ?? nil
        try db.subscriptions.insertNotification(id: UUID().uuidString, scope: scope ?? database.sequenceScope, owner: entry.owner, subscriptionID: entry.subscription.subscriptionID, type: type, reason: reason, zoneID: zoneID, recordName: recordName, recordType: recordType, fields: fields, display: display, createdAt: nowMilliseconds, originDevice: database.device)
    }
}

/// A record's state after a save, as the evaluator sees it.
private struct SavedRecordState: FilterableRecord {
    let record: Record

    func value(for key: FieldKey) -> FieldValue? {
        switch key {
        case .custom(let name, _): return record.fields[name]
        case .system(let field):
            switch field {
            case .recordID: return .reference(Reference(recordName: record.recordName))
            case .createTime: return record.creationDate.map { .timestamp($0) }
            case .modTime: return record.modificationDate.map { .timestamp($0) }
            case .createdBy: return record.creatorUserRecordName.map { .reference(Reference(recordName: $0)) }
            case .modifiedBy: return record.lastModifiedUserRecordName.map { .reference(Reference(recordName: $0)) }
            case .etag: return record.recordChangeTag.map { .string($0) }
            case .parent: return record.parent.map { .reference(Reference(recordName: $0.recordName)) }
            case .share: return nil
            }
        }
    }

    var customFieldNames: [String] { Array(record.fields.keys) }
}
