import Foundation
import StratusModel
import StratusCloud

extension CloudDatabase {
    /// The most participants a share holds besides its owner, as CloudKit's limit.
    public static let maximumParticipants = 100

    /// Shares a record of this user's private database, with every record whose `parent`
    /// chain leads to it, as saving a `CKShare(rootRecord:)` does; or, with `rootRecord` nil,
    /// the whole zone, as `CKShare(recordZoneID:)`.
    ///
    /// The share is a `cloudkit.share` record in the zone (named `recordName`, default
    /// `Share-<UUID>`; always `cloudkit.zoneshare` for a zone share), holding `fields` (the
    /// share's `cloudkit.type` ...) and `title`. Its URL stays the same when the same root or
    /// zone is shared again.
    ///
    /// - Throws: `alreadyShared (30)` when the record, a record above it or below it, or the
    ///   zone is in a share already; `unknownItem` for a root that does not exist;
    ///   `badDatabase` outside the private database; `invalidArguments` for the default zone,
    ///   which cannot be shared.
    @discardableResult
    public func createShare(rootRecord: String? = nil, inZoneWith zoneID: ZoneID, publicPermission: SharePermission = .none,
                            title: String? = nil, recordName requestedName: String? = nil, fields: [String: FieldValue] = [:]) throws -> Share {
        guard scope == .private else {
            throw CloudKitError(.badDatabase, "Shares are made in the owner's private database, not the \(scope.name) database.")
        }
        guard !zoneID.isDefault else {
            throw CloudKitError(.invalidArguments, "The default zone cannot be shared (CloudKit's rule); move the records to a custom zone.")
        }
        return try store.write { db in
            let gate = try gate(db)
            let zone = try gate.zone(zoneID)
            let existing = try db.shares.live(zoneRowID: zone.id)
            if existing.contains(where: { $0.rootName == nil }) {
                throw CloudKitError(.alreadyShared, "Zone '\(zoneID.zoneName)' is shared as a whole already; a record can take part in one share only.")
            }
            let recordName: String
            if let rootRecord {
                guard let root = try db.records.find(zoneRowID: zone.id, name: rootRecord) else {
                    throw CloudKitError(.unknownItem, "Record '\(rootRecord)' does not exist in zone '\(zoneID.zoneName)'; save it before sharing it.")
                }
                try ShareHierarchy(db: db, zoneRowID: zone.id).checkNotShared(root, shares: existing)
                recordName = requestedName ?? "Share-" + UUID().uuidString
                if let problem = RecordID.problem(withName: recordName) { throw CloudKitError(.invalidArguments, "Invalid share record name: \(problem).") }
                if try db.records.find(zoneRowID: zone.id, name: recordName) != nil {
                    throw CloudKitError(.constraintViolation, "A record named '\(recordName)' exists in zone '\(zoneID.zoneName)' already.")
                }
            } else {
                if !existing.isEmpty {
                    throw CloudKitError(.alreadyShared, "Zone '\(zoneID.zoneName)' has record shares already; a zone-wide share would share their records twice.")
                }
                recordName = ShareRecordType.zoneWideShareRecordName
            }
            var record = Record(recordType: ShareRecordType.name, recordID: RecordID(recordName: recordName, zoneID: zoneID))
            for (name, value) in fields { record[name] = value }
            if let title { record["cloudkit.title"] = .string(title) }
            let saved = try modifyRecords(saving: [record], deleting: [], savePolicy: .allKeys, atomically: true, in: db)
            _ = try saved.saveResults[0].result.get()
            let guid = ShareGUID.make(storeID: store.storeID, zoneRowID: zone.id, root: rootRecord)
            try db.shares.insert(zoneRowID: zone.id, recordName: recordName, rootName: rootRecord, shortGUID: guid, publicPermission: publicPermission, owner: user)
            return try ShareReader(db: db, viewer: user).share(shortGUID: guid)
        }
    }

    /// Adds a user to a share this user owns, or changes their permission; they are invited
    /// until they accept the URL. A removed participant is invited again.
    ///
    /// - Throws: `permissionFailure` for a share this user does not own;
    ///   `invalidArguments` for a share with a public permission (CloudKit does not mix public
    ///   and private participants) or for the owner; `tooManyParticipants (29)` past 100.
    @discardableResult
    public func addParticipant(_ participant: String, permission: SharePermission, toShare url: String) throws -> Share {
        guard permission != .none else {
            throw CloudKitError(.invalidArguments, "A participant's permission is read-only or read-write.")
        }
        return try changeOwnedShare(url) { share, db in
            guard participant != user else {
                throw CloudKitError(.invalidArguments, "The owner is a participant of their own share already.")
            }
            guard share.publicPermission == .none else {
                throw CloudKitError(.invalidArguments, "The share is public (\(share.publicPermission)): anyone with its URL joins; set its public permission to none to invite users.")
            }
            guard try db.users.exists(participant) else {
                throw CloudKitError(.unknownItem, "No user '\(participant)' in this store.", reason: .unknownUser(participant))
            }
            let others = try db.shares.participants(of: share.id).filter { $0.type != .owner && $0.status != .removed && $0.user != participant }
            guard others.count < CloudDatabase.maximumParticipants else {
                throw CloudKitError(.tooManyParticipants, "The share has \(others.count) participants; CloudKit's limit is \(CloudDatabase.maximumParticipants).")
            }
            let sequence = try CloudDatabase.nextDatabaseSequence(scope: .private, in: db)
            try db.shares.invite(participant, to: share.id, permission: permission, databaseSequence: sequence)
        }
    }

    /// Takes a participant out of a share this user owns: their access ends, and the zone
    /// leaves their shared database (reported by its database changes).
    @discardableResult
    public func removeParticipant(_ participant: String, fromShare url: String) throws -> Share {
        try changeOwnedShare(url) { share, db in
            guard let row = try db.shares.participants(of: share.id).first(where: { $0.user == participant && $0.type != .owner }),
                  row.status != .removed else {
                throw CloudKitError(.unknownItem, "User '\(participant)' is not a participant of the share.")
            }
            try db.shares.setStatus(.removed, of: participant, in: share.id, databaseSequence: try CloudDatabase.nextDatabaseSequence(scope: .private, in: db))
        }
    }

    /// Changes who may join a share through its URL alone. As CloudKit does, going to `none`
    /// removes every participant; going public removes those still invited.
    @discardableResult
    public func setPublicPermission(_ permission: SharePermission, ofShare url: String) throws -> Share {
        try changeOwnedShare(url) { share, db in
            let sequence = try CloudDatabase.nextDatabaseSequence(scope: .private, in: db)
            try db.shares.setPublicPermission(permission, of: share.id, databaseSequence: sequence)
        }
    }

    /// Accepts a share as this user, as `CKAcceptSharesOperation`: an invited participant
    /// becomes accepted, anyone with the URL of a public share joins; the zone then appears in
    /// the user's shared database. Accepting again changes nothing.
    ///
    /// - Throws: `unknownItem` for a URL of no share; `permissionFailure` for a private share
    ///   the user was not invited to, or was removed from.
    @discardableResult
    public func acceptShare(_ url: String) throws -> Share {
        guard let user = caller.userRecordName else {
            throw CloudKitError(.notAuthenticated, "Accepting a share needs a signed-in user; this request acts as no user.")
        }
        return try store.write { db in
            let share = try ShareReader.liveShare(url, in: db)
            let participant = try db.shares.participants(of: share.id).first { $0.user == user }
            switch participant?.status {
            case .accepted?:
                break
            case .invited?:
                try db.shares.setStatus(.accepted, of: user, in: share.id, databaseSequence: try CloudDatabase.nextDatabaseSequence(scope: .private, in: db))
            case .removed?, nil:
                guard share.publicPermission != .none else {
                    let why = participant == nil ? "you are not invited to it" : "the owner removed you from it"
                    throw CloudKitError(.permissionFailure, "Cannot accept the share: \(why).")
                }
                try db.shares.join(user, publicShare: share.id, permission: share.publicPermission, databaseSequence: try CloudDatabase.nextDatabaseSequence(scope: .private, in: db))
            }
            return try ShareReader(db: db, viewer: user).share(shortGUID: share.shortGUID)
        }
    }

    /// Ends a share: its owner deletes it (the share record goes; the records stay), a
    /// participant leaves it. Either way the zone leaves the participants' shared databases.
    public func deleteShare(_ url: String) throws {
        let user = caller.userRecordName
        try store.write { db in
            let share = try ShareReader.liveShare(url, in: db)
            guard let zone = try db.zones.find(id: share.zoneRowID) else { return }
            let owned = zone.ownerRecordName == user
            let participates = try user.map { user in try db.shares.participants(of: share.id).contains { $0.user == user && $0.status == .accepted } } ?? false
            guard owned || participates else {
                throw CloudKitError(.permissionFailure, "Only the share's owner deletes it, and only a participant leaves it.")
            }
            // As a client does it: a delete of the share record, in the owner's private database
            // (the share ends) or the participant's shared one (the write plan takes them out).
            let database = CloudDatabase(store: store, scope: owned ? .private : .shared, caller: caller, device: device)
            let zoneID = owned ? ZoneID(zoneName: zone.zoneID.zoneName) : ZoneID(zoneName: zone.zoneID.zoneName, ownerName: zone.ownerRecordName)
            let result = try database.modifyRecords(saving: [], deleting: [RecordID(recordName: share.recordName, zoneID: zoneID)],
                                                    savePolicy: .allKeys, atomically: true, in: db)
            try result.deleteResults[0].result.get()
        }
    }

    /// One share by URL, as its owner or a participant sees it; `permissionFailure` for
    /// anyone else unless the share is public.
    public func share(_ url: String) throws -> Share {
        try store.read { db in
            let share = try ShareReader.liveShare(url, in: db)
            let reader = ShareReader(db: db, viewer: user)
            let found = try reader.share(shortGUID: share.shortGUID)
            guard found.ownerRecordName == user || found.participants.contains(where: { $0.userRecordName == user }) || share.publicPermission != .none else {
                throw CloudKitError(.permissionFailure, "You are not a participant of this share.")
            }
            return found
        }
    }

    /// The shares this user owns, and those they accepted from others.
    public func shares() throws -> (owned: [Share], accepted: [Share]) {
        guard let user = caller.userRecordName else {
            throw CloudKitError(.notAuthenticated, "Shares belong to signed-in users; this request acts as no user.")
        }
        return try store.read { db in try ShareReader(db: db, viewer: user).shares() }
    }

    /// Runs `change` on a live share this user owns, bumps the share record (its participant
    /// list changed, so participants' change feeds show it again) and returns the share.
    private func changeOwnedShare(_ url: String, _ change: (ShareRows.ShareRow, StoreTransaction) throws -> Void) throws -> Share {
        try store.write { db in
            let share = try ShareReader.liveShare(url, in: db)
            guard let zone = try db.zones.find(id: share.zoneRowID), zone.ownerRecordName == user else {
                throw CloudKitError(.permissionFailure, "Only the share's owner changes its participants or permission.")
            }
            try change(share, db)
            try ShareReader.touchShareRecord(share, zone: zone, in: db)
            return try ShareReader(db: db, viewer: user).share(shortGUID: share.shortGUID)
        }
    }
}
