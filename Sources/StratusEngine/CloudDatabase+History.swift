import Foundation
import StratusModel
import StratusCloud

/// What a compaction did.
public struct HistoryCompaction: Sendable {
    /// Changes before this point are gone; a token older than it gets `changeTokenExpired`.
    public var compactedSequence: Int64
    /// Deletions whose tombstones were dropped.
    public var droppedDeletions: Int
    /// The oldest token that still plays back (at the compaction point).
    public var oldestValidToken: String
}

extension CloudDatabase {
    /// Drops a zone's change history before a point, as CloudKit does when it stops keeping old
    /// history: tombstones of deletions before it go, and every token older than it answers
    /// `changeTokenExpired (21)`, so a sync client must refetch the zone from the beginning.
    /// Tokens at or after the point keep working, and playback from no token still gives every
    /// record in its current state.
    ///
    /// - Parameters:
    ///   - zoneID: the zone whose history to compact.
    ///   - token: compact before this token (a token of this zone); or
    ///   - keeping: keep only the newest `keeping` changes.
    public func compactHistory(inZoneWith zoneID: ZoneID, before token: String? = nil, keeping: Int? = nil) throws -> HistoryCompaction {
        guard (token == nil) != (keeping == nil) else {
            throw CloudKitError(.invalidArguments, "Compact either before a token or keeping a number of changes, not both or neither.")
        }
        if let keeping, keeping < 0 { throw CloudKitError(.invalidArguments, "The number of changes to keep cannot be negative.") }
        if scope == .shared {
            throw CloudKitError(.permissionFailure, "Only a zone's owner compacts its history; zones of the shared database belong to other users.")
        }
        // Validates the token against the zone as playback would (and the zone's change feed).
        if let token { _ = try withoutFaults.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: 1) } else { _ = try currentToken(for: zoneID) }
        return try store.write { db in
            let zone = try gate(db).zone(zoneID)
            var point: Int64
            if let token {
                point = try ZoneChangeToken.decode(token, storeID: store.storeID).sequence
            } else {
                point = max(0, zone.changeSequence - Int64(keeping ?? 0))
            }
            point = max(point, zone.compactedSequence)
            let dropped = try db.zones.compact(zoneRowID: zone.id, through: point)
            let oldest = ZoneChangeToken(scope: scope, zoneRowID: zone.id, incarnation: zone.incarnation, sequence: point).encoded(storeID: store.storeID)
            return HistoryCompaction(compactedSequence: point, droppedDeletions: dropped, oldestValidToken: oldest)
        }
    }

    /// The oldest token of a zone that still plays back (the beginning, when the history was
    /// never compacted).
    public func oldestValidToken(for zoneID: ZoneID) throws -> String {
        try historyStart(for: zoneID).oldestValidToken
    }

    /// Where a zone's history starts: its oldest token that still plays back, and the change
    /// it was compacted before (0: never compacted).
    public func historyStart(for zoneID: ZoneID) throws -> (oldestValidToken: String, compactedSequence: Int64) {
        _ = try currentToken(for: zoneID)
        return try store.read { db in
            let zone = try gate(db).zone(zoneID)
            let token = ZoneChangeToken(scope: scope, zoneRowID: zone.id, incarnation: zone.incarnation, sequence: zone.compactedSequence)
            return (token.encoded(storeID: store.storeID), zone.compactedSequence)
        }
    }
}
