import Foundation
import StratusModel
import StratusCloud

/// The one place that decides what a caller reaches, as CloudKit would let them: which zones
/// a database shows, and whether a record may be read, created, changed or deleted there.
///
/// - Private database: the caller's own; another user's zones do not exist from here.
/// - Public database: one for everyone; records are guarded per type by the schema's security
///   roles (see `PublicGrants`).
/// - Shared database: a view of other users' private zones, holding exactly what shares the
///   caller accepted reach (a whole zone, or a root record and the records under it), with the
///   share's permission.
///
/// Every operation makes one gate for its transaction; it caches what it looked up.
final class AccessGate {
    let scope: DatabaseScope
    let caller: Caller
    let db: StoreTransaction
    /// The schema, read only when a check needs it: zone lookups (every current-token call)
    /// stay one indexed read.
    private var knownCatalog: SchemaCatalog?
    private let loadCatalog: () throws -> SchemaCatalog
    private var callerRoles: Set<String>?
    private var grants: [String: PublicGrants] = [:]
    private var development: Bool?
    private var sharedGrants: [Int64: [ShareRows.Grant]] = [:]
    /// Per zone: the share root (if any) each record name's parent chain reaches.
    private var reachedRoots: [Int64: [String: String?]] = [:]

    init(scope: DatabaseScope, caller: Caller, db: StoreTransaction, catalog: SchemaCatalog) {
        self.scope = scope
        self.caller = caller
        self.db = db
        knownCatalog = catalog
        loadCatalog = { catalog }
    }

    convenience init(_ database: CloudDatabase, db: StoreTransaction, catalog: SchemaCatalog) {
        self.init(scope: database.scope, caller: database.caller, db: db, catalog: catalog)
    }

    /// A gate that reads the schema of `database`'s store only when a check needs it.
    init(_ database: CloudDatabase, db: StoreTransaction) {
        scope = database.scope
        caller = database.caller
        self.db = db
        let store = database.store
        loadCatalog = { try store.catalog(db) }
    }

    private func catalog() throws -> SchemaCatalog {
        if let knownCatalog { return knownCatalog }
        let loaded = try loadCatalog()
        knownCatalog = loaded
        return loaded
    }

    // MARK: - Zones

    /// The zone row ``zone(_:)`` reads for `zoneID` (its stored ID and scope), or nil when
    /// the caller cannot reach such a zone whatever the store holds: the one place the two
    /// agree on, so a read can ask for the row ahead (``ZoneStorage/prefetch(_:scope:)``).
    static func zoneRowKey(_ zoneID: ZoneID, scope: DatabaseScope, caller: Caller) -> (zoneID: ZoneID, scope: DatabaseScope)? {
        switch scope {
        case .public:
            return (ZoneID(zoneName: zoneID.zoneName), .public)
        case .private:
            guard let owner = caller.userRecordName, zoneID.ownerName == ZoneID.defaultOwnerName || zoneID.ownerName == owner else { return nil }
            return (ZoneID(zoneName: zoneID.zoneName, ownerName: owner), .private)
        case .shared:
            guard let user = caller.userRecordName, zoneID.ownerName != ZoneID.defaultOwnerName, zoneID.ownerName != user else { return nil }
            return (zoneID, .private)
        }
    }

    /// ``zone(_:)`` as a result, for a batch that answers each record of a zone it cannot reach
    /// with the zone's error instead of failing whole.
    func zoneResult(_ zoneID: ZoneID) -> Result<ZoneRow, CloudKitError> {
        do {
            return .success(try zone(zoneID))
        } catch let error as CloudKitError {
            return .failure(error)
        } catch {
            return .failure(CloudKitError(.internalError, "\(error)"))
        }
    }

    /// The live zone `zoneID` names for the caller, or `zoneNotFound` (also for a zone that
    /// exists but is not the caller's to see, as CloudKit does not reveal it).
    func zone(_ zoneID: ZoneID) throws -> ZoneRow {
        let notFound = CloudKitError(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist in the \(scope.name) database.",
                                     reason: .zoneNotFound(zoneName: zoneID.zoneName, database: scope))
        let row = try AccessGate.zoneRowKey(zoneID, scope: scope, caller: caller).flatMap { try db.zones.find($0.zoneID, scope: $0.scope) }
        switch scope {
        case .public:
            guard let row, row.state == .live else { throw notFound }
            return row.named(ZoneID(zoneName: zoneID.zoneName))
        case .private:
            _ = try signedInUser()
            guard let row, row.state == .live else { throw notFound }
            return row.named(ZoneID(zoneName: zoneID.zoneName))
        case .shared:
            _ = try signedInUser()
            guard let row, row.state == .live,
                  try !sharedGrants(in: row).isEmpty else {
                if zoneID.ownerName == ZoneID.defaultOwnerName {
                    throw CloudKitError(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist in the shared database: a shared zone is named with its owner's user record name.",
                                        reason: .sharedZoneNeedsOwner(zoneName: zoneID.zoneName))
                }
                throw notFound
            }
            return row
        }
    }

    /// The zone ID rows are kept under for a zone the caller makes in their private database.
    func ownZoneID(_ zoneID: ZoneID) throws -> ZoneID {
        guard scope == .private else {
            throw CloudKitError(.badDatabase, "Custom zones can only be made in the private database, not the \(scope.name) database (CloudKit's rule).")
        }
        let owner = try signedInUser()
        guard zoneID.ownerName == ZoneID.defaultOwnerName || zoneID.ownerName == owner else {
            throw CloudKitError(.permissionFailure, "Zone '\(zoneID.zoneName)' names another owner; a user makes and deletes zones only in their own private database.")
        }
        return ZoneID(zoneName: zoneID.zoneName, ownerName: owner)
    }

    /// The live zones the caller sees, the default zone first.
    func zones() throws -> [ZoneRow] {
        switch scope {
        case .public:
            return try db.zones.all(scope: .public, owner: ZoneID.defaultOwnerName)
        case .private:
            return try db.zones.all(scope: .private, owner: signedInUser()).map { $0.named(ZoneID(zoneName: $0.zoneID.zoneName)) }
        case .shared:
            return try SharedZoneFeed(user: signedInUser(), db: db).liveZones()
        }
    }

    /// The zones changed, deleted or purged after a database sequence, oldest first.
    func changedZones(after sequence: Int64, limit: Int) throws -> [ZoneRow] {
        switch scope {
        case .public:
            return []
        case .private:
            return try db.zones.changed(scope: .private, owner: signedInUser(), after: sequence, limit: limit)
                .map { $0.named(ZoneID(zoneName: $0.zoneID.zoneName)) }
        case .shared:
            return try SharedZoneFeed(user: signedInUser(), db: db).changed(after: sequence, limit: limit)
        }
    }

    /// How many records of a zone the caller sees: all of them but in a zone shared through
    /// record shares, where only the shared hierarchies count.
    func visibleRecordCount(in zone: ZoneRow) throws -> Int {
        let all = try db.records.count(zoneRowID: zone.id)
        guard scope == .shared, let visible = try readFilter(zone: zone, typeName: nil) else { return all }
        var count = 0
        try db.records.forEach(zoneRowID: zone.id) { if try visible($0) { count += 1 } }
        return count
    }

    // MARK: - Records

    /// A check queries and playback make on each record, or nil when the caller may read
    /// every record of the type in the zone (then nothing is checked per record).
    func readFilter(zone: ZoneRow, typeName: String?) throws -> ((StoredRecord) throws -> Bool)? {
        switch scope {
        case .private:
            return nil
        case .public:
            guard let typeName else { return nil }
            let grants = try publicGrants(typeName)
            if grants.readableByEveryone { return nil }
            let roles = try roles()
            if grants.allows(.read, callerRoles: roles, caller: caller, creator: nil) { return nil }
            let caller = self.caller
            return { stored in grants.allows(.read, callerRoles: roles, caller: caller, creator: stored.createdBy) }
        case .shared:
            let grants = try sharedGrants(in: zone)
            if grants.contains(where: { $0.rootName == nil }) { return nil }
            return { [self] stored in try self.sharedGrant(for: stored.name, parent: stored.parent, zone: zone) != nil }
        }
    }

    /// Whether the caller may read a public record of `recordType` made by `creator` (for
    /// subscriptions: a notification tells what a record holds).
    func mayRead(recordType: String, creator: String?) throws -> Bool {
        try publicGrants(recordType).allows(.read, callerRoles: try roles(), caller: caller, creator: creator)
    }

    /// Refuses a read the caller may not make: `unknownItem` for a record outside what is
    /// shared with them, `permissionFailure` for a public type whose READ they lack.
    func checkRead(_ stored: StoredRecord, zone: ZoneRow) throws {
        switch scope {
        case .private:
            return
        case .public:
            let typeName = try catalog().typeNames[stored.typeID] ?? "?"
            let grants = try publicGrants(typeName)
            guard grants.allows(.read, callerRoles: try roles(), caller: caller, creator: stored.createdBy) else {
                throw grants.refusal(.read, caller: caller)
            }
        case .shared:
            guard try sharedGrant(for: stored.name, parent: stored.parent, zone: zone) != nil else {
                throw CloudKitError(.unknownItem, "Record '\(stored.name)' does not exist in zone '\(zone.zoneID.zoneName)'.")
            }
        }
    }

    /// Refuses a save the caller may not make: a new record needs CREATE (public) or a
    /// read-write share reaching its parent (shared); a change needs WRITE or a read-write share.
    func checkSave(recordName: String, recordType: String, parent: String?, existing: StoredRecord?, zone: ZoneRow) throws {
        switch scope {
        case .private:
            return
        case .public:
            try signedInForWrite()
            let grants = try publicGrants(recordType)
            let permission: GrantDeclaration.Permission = existing == nil ? .create : .write
            guard grants.allows(permission, callerRoles: try roles(), caller: caller, creator: existing?.createdBy) else {
                throw grants.refusal(permission, caller: caller)
            }
        case .shared:
            if ShareRecordType.isShareType(recordType) {
                throw CloudKitError(.permissionFailure, "Only the share's owner changes share '\(recordName)'; participants leave a share by deleting it.")
            }
            if let existing {
                try checkRead(existing, zone: zone)
            }
            // A record under a shared root is shared through its parent; a new one is too.
            let grant = try existing.map { try sharedGrant(for: $0.name, parent: $0.parent, zone: zone) }
                ?? sharedGrant(for: recordName, parent: parent, zone: zone)
            guard let grant else {
                throw CloudKitError(.permissionFailure, "Record '\(recordName)' is outside what is shared with you in zone '\(zone.zoneID.zoneName)': give it a parent inside the shared hierarchy.")
            }
            guard grant.permission == .readWrite else {
                throw CloudKitError(.permissionFailure, "You are a read-only participant of the share of zone '\(zone.zoneID.zoneName)'; saving '\(recordName)' needs read-write permission.")
            }
        }
    }

    /// Refuses a delete the caller may not make: WRITE (public), or a read-write share that
    /// does not have this record as its root (only the owner deletes a shared root). A
    /// participant deleting the share record itself leaves the share instead (CloudKit removes
    /// the participant): the answer is then that share's id, and nothing is deleted.
    @discardableResult
    func checkDelete(_ existing: StoredRecord, zone: ZoneRow) throws -> Int64? {
        switch scope {
        case .private:
            return nil
        case .public:
            try signedInForWrite()
            let typeName = try catalog().typeNames[existing.typeID] ?? "?"
            let grants = try publicGrants(typeName)
            guard grants.allows(.write, callerRoles: try roles(), caller: caller, creator: existing.createdBy) else {
                throw grants.refusal(.write, caller: caller)
            }
            return nil
        case .shared:
            try checkRead(existing, zone: zone)
            let grant = try sharedGrant(for: existing.name, parent: existing.parent, zone: zone)
            if let grant, grant.shareRecordName == existing.name { return grant.shareID }
            guard let grant, grant.permission == .readWrite else {
                throw CloudKitError(.permissionFailure, "You are a read-only participant of the share of zone '\(zone.zoneID.zoneName)'; deleting '\(existing.name)' needs read-write permission.")
            }
            if grant.rootName == existing.name {
                throw CloudKitError(.permissionFailure, "Only the owner deletes '\(existing.name)': it is the root of the share.")
            }
            return nil
        }
    }

    // MARK: - Private

    private func signedInUser() throws -> String {
        guard let user = caller.userRecordName else {
            throw CloudKitError(.notAuthenticated, "The \(scope.name) database belongs to a signed-in user; this request acts as no user.")
        }
        return user
    }

    private func signedInForWrite() throws {
        guard caller.userRecordName != nil else {
            throw CloudKitError(.notAuthenticated, "Writing to the public database needs a signed-in user; this request acts as no user (only _world).")
        }
    }

    private func roles() throws -> Set<String> {
        if let callerRoles { return callerRoles }
        let custom = try caller.userRecordName.map { try db.users.roles(of: $0) } ?? []
        let roles = PublicGrants.callerRoles(caller, customRoles: custom)
        callerRoles = roles
        return roles
    }

    private func publicGrants(_ typeName: String) throws -> PublicGrants {
        if let known = grants[typeName] { return known }
        if development == nil { development = try (db.schema.storeInfo()?.environment ?? .development) == .development }
        let catalog = try catalog()
        let declared = catalog.type(named: typeName).flatMap { catalog.grants[$0.id] }
        let made = PublicGrants(typeName: typeName, declared: declared, development: development ?? true)
        grants[typeName] = made
        return made
    }

    private func sharedGrants(in zone: ZoneRow) throws -> [ShareRows.Grant] {
        if let known = sharedGrants[zone.id] { return known }
        let found = try caller.userRecordName.map { try db.shares.grants(zoneRowID: zone.id, user: $0) } ?? []
        sharedGrants[zone.id] = found
        return found
    }

    /// The accepted share that reaches a record (named, with its parent), or nil.
    private func sharedGrant(for name: String, parent: String?, zone: ZoneRow) throws -> ShareRows.Grant? {
        let grants = try sharedGrants(in: zone)
        if let zoneWide = grants.first(where: { $0.rootName == nil }) { return zoneWide }
        if let share = grants.first(where: { $0.shareRecordName == name }) { return share }
        guard let root = try reachedRoot(name: name, parent: parent, zone: zone, roots: Set(grants.compactMap(\.rootName))) else { return nil }
        return grants.first { $0.rootName == root }
    }

    /// Follows `parent` references up from a record until one of `roots` (or the top).
    private func reachedRoot(name: String, parent: String?, zone: ZoneRow, roots: Set<String>) throws -> String? {
        if roots.contains(name) { return name }
        var seen: [String] = [name]
        var next = parent
        var found: String?
        while let current = next, seen.count < 256 {
            if let known = reachedRoots[zone.id]?[current] { found = known; break }
            if roots.contains(current) { found = current; break }
            guard !seen.contains(current) else { break }
            seen.append(current)
            next = try db.records.parentName(zoneRowID: zone.id, name: current)
        }
        for visited in seen { reachedRoots[zone.id, default: [:]][visited] = .some(found) }
        return found
    }
}
