import StratusCloud
import StratusEngine

/// The Sharing tab's work, and the inspector's sharing line.
enum SharingEffect: Sendable {
    case load(job: Int)
    /// Invites a user to a share (or changes their permission); nil `permission` removes them.
    case changeParticipant(job: Int, url: String, user: String, permission: SharePermission?)
    case shareStatus(RecordID, scope: DatabaseScope)
}
