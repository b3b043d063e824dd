import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The Sharing tab's effects: shares, participants, a record's share status.
extension EffectRunner {
    /// Loads shares, invites and removes participants, and reads a record's share status.
    func executeSharing(_ effect: SharingEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job):
            post(.sharing(.shares(job: job, capture { try shares() }, done: nil)))

        case .changeParticipant(let job, let url, let user, let permission):
            let database = database(.private)
            post(.sharing(.shares(job: job, capture {
                if let permission {
                    try database.addParticipant(user, permission: permission, toShare: url)
                } else {
                    try database.removeParticipant(user, fromShare: url)
                }
                return try shares()
            }, done: permission.map { "Invited them (\($0)); they accept the URL to join." } ?? "Removed them from the share.")))

        case .createShare(let job, let zone, let root, let permission):
            let database = database(.private)
            let shared = root.map { "\($0) and the records under it" } ?? "zone \(zone.zoneName)"
            post(.sharing(.shares(job: job, capture {
                try database.createShare(rootRecord: root, inZoneWith: zone, publicPermission: permission, title: nil, recordName: nil, fields: [:])
                return try shares()
            }, done: "Shared \(shared) (\(permission == .none ? "invited users only" : "anyone with the URL: \(permission)")); y copies its URL.")))

        case .accept(let job, let url):
            let database = database(.private)
            let result = capture { (share: try database.acceptShare(url), snapshot: try shares()) }
            let done = (try? result.get()).map {
                "Accepted \($0.share.ownerAlias)'s share of \($0.share.recordID.zoneID.zoneName); Enter on it opens the zone in the shared database."
            }
            post(.sharing(.shares(job: job, result.map(\.snapshot), done: done)))

        case .setPublicPermission(let job, let url, let permission):
            let database = database(.private)
            post(.sharing(.shares(job: job, capture {
                try database.setPublicPermission(permission, ofShare: url)
                return try shares()
            }, done: permission == .none ? "The share now takes invited users only." : "Anyone with the URL may now join (\(permission)).")))

        case .shareStatus(let recordID, let scope):
            let status: RecordShareStatus?
            do {
                status = try database(scope).shareStatus(of: recordID)
            } catch let error as CloudKitError {
                // A remote has no call for it: the header says so rather than that it is in no share.
                if case .notAvailableRemotely = error.reason { post(.sharing(.shareStatus(recordID, "share status not available remotely"))) }
                return
            } catch {
                return
            }
            guard let status else {
                post(.sharing(.shareStatus(recordID, nil)))
                return
            }
            let others = status.share.participants.filter { $0.type != .owner && $0.status == .accepted }.count
            let what = status.isRoot ? (status.share.isZoneWide ? "in a zone-wide share" : "shared (root of its share)")
                : (status.share.isZoneWide ? "in a zone-wide share" : "inside the share of \(status.share.rootRecordName ?? "?")")
            post(.sharing(.shareStatus(recordID, "\(what), owner \(status.share.ownerAlias), \(others) participant\(others == 1 ? "" : "s")")))
        }
    }

    private func shares() throws -> SharesSnapshot {
        let (owned, accepted) = try database(.private).shares()
        return SharesSnapshot(owned: owned, accepted: accepted)
    }
}
