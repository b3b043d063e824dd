import StratusCloud
import StratusEngine

/// The Sharing tab's work, and the inspector's sharing line.
enum SharingEffect: Sendable {
    case load(job: Int)
    /// Invites a user to a share (or changes their permission); nil `permission` removes them.
    case changeParticipant(job: Int, url: String, user: String, permission: SharePermission?)
    case shareStatus(RecordID, scope: DatabaseScope)
    /// Shares the zone (`root` nil) or a record and those under it, from the private database.
    case createShare(job: Int, zone: ZoneID, root: String?, publicPermission: SharePermission)
    /// Accepts the share at `url` as the acting user.
    case accept(job: Int, url: String)
    case setPublicPermission(job: Int, url: String, permission: SharePermission)
}
