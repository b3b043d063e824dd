import Foundation
import StratusModel
import StratusCloud

/// What a share's URL tells whoever opens it, as `CKShare.Metadata` (and Web Services'
/// `records/resolve`): the share, its owner, the caller's place in it and, if asked, the root.
public struct ShareMetadata: Sendable {
    public var share: Share
    /// The `cloudkit.share` record, named from the caller's side.
    public var shareRecord: Record
    /// The root record (record shares, when asked for).
    public var rootRecord: Record?
    /// The caller's participant entry; nil for someone about to join a public share.
    public var participant: ShareParticipant?
    /// Whether the caller owns the share (then it is in their private database, not shared).
    public var callerIsOwner: Bool
}

extension CloudDatabase {
    /// The metadata of the share with this URL (or short GUID), as its owner, a participant (also
    /// one still invited), or anyone for a public share sees it.
    ///
    /// - Throws: `unknownItem` for no such share; `permissionFailure` for a private share the
    ///   caller is not invited to; `notAuthenticated` for no user.
    public func shareMetadata(_ url: String, fetchingRootRecord: Bool = false, rootDesiredKeys: [String]? = nil) throws -> ShareMetadata {
        guard let user = caller.userRecordName else {
            throw CloudKitError(.notAuthenticated, "Reading a share needs a signed-in user; this request acts as no user.")
        }
        return try store.read { db in
            let row = try ShareReader.liveShare(url, in: db)
            let share = try ShareReader(db: db, viewer: user).share(shortGUID: row.shortGUID)
            let participant = share.participants.first { $0.userRecordName == user && $0.status != .removed }
            let isOwner = share.ownerRecordName == user
            guard isOwner || participant != nil || share.publicPermission != .none else {
                throw CloudKitError(.permissionFailure, "You are not a participant of this share; ask its owner to invite you.")
            }
            let catalog = try store.catalog(db)
            func record(_ name: String, desiredKeys: [String]?) throws -> Record? {
                guard let stored = try db.records.find(zoneRowID: row.zoneRowID, name: name) else { return nil }
                return try stored.record(zoneID: share.recordID.zoneID, typeName: catalog.typeNames[stored.typeID] ?? "?", desiredKeys: desiredKeys)
            }
            guard let shareRecord = try record(row.recordName, desiredKeys: nil) else { throw CloudKitError(.unknownItem, "share not found") }
            let root = fetchingRootRecord ? try row.rootName.flatMap { try record($0, desiredKeys: rootDesiredKeys) } : nil
            return ShareMetadata(share: share, shareRecord: shareRecord, rootRecord: root, participant: participant, callerIsOwner: isOwner)
        }
    }
}

extension CloudDatabase {
    /// The short GUID a record has when it is shared, as `createShortGUID` asks for before the
    /// share exists: the one its share will carry.
    public func shortGUID(forRoot recordID: RecordID) throws -> String {
        try store.read { db in
            let zone = try gate(db).zone(recordID.zoneID)
            return ShareGUID.make(storeID: store.storeID, zoneRowID: zone.id, root: recordID.recordName)
        }
    }
}

/// Where a record stands with sharing.
public struct RecordShareStatus: Sendable {
    public var share: Share
    /// The record is the share's root (or the share record itself).
    public var isRoot: Bool
}

extension CloudDatabase {
    /// The share a record takes part in, as this user sees it: as the root of a record share,
    /// under one through its `parent` chain, or in a zone shared whole; nil when it is in none.
    public func shareStatus(of recordID: RecordID) throws -> RecordShareStatus? {
        try store.read { db in
            let gate = try gate(db)
            let zone = try gate.zone(recordID.zoneID)
            let shares = try db.shares.live(zoneRowID: zone.id)
            guard !shares.isEmpty else { return nil }
            let reader = ShareReader(db: db, viewer: user)
            if let whole = shares.first(where: { $0.rootName == nil }) {
                return RecordShareStatus(share: try reader.share(shortGUID: whole.shortGUID), isRoot: whole.recordName == recordID.recordName)
            }
            if let own = shares.first(where: { $0.rootName == recordID.recordName || $0.recordName == recordID.recordName }) {
                return RecordShareStatus(share: try reader.share(shortGUID: own.shortGUID), isRoot: true)
            }
            guard let stored = try db.records.find(zoneRowID: zone.id, name: recordID.recordName),
                  (try? gate.checkRead(stored, zone: zone)) != nil else { return nil }
            let above = try ShareHierarchy(db: db, zoneRowID: zone.id).ancestors(of: stored)
            guard let share = shares.first(where: { $0.rootName.map(above.contains) ?? false }) else { return nil }
            return RecordShareStatus(share: try reader.share(shortGUID: share.shortGUID), isRoot: false)
        }
    }
}
