import StratusCloud
import StratusEngine

/// What the Sharing tab's effects report back.
enum SharingMessage: Sendable {
    /// The shares the acting user owns and accepted (`done`: what a change just did).
    case shares(job: Int, Result<SharesSnapshot, CloudKitError>, done: String?)
    /// Where a record stands with sharing, for its inspector (nil: in no share).
    case shareStatus(RecordID, String?)
}

/// The shares of the acting user, read together.
struct SharesSnapshot: Sendable {
    var owned: [Share]
    var accepted: [Share]

    init(owned: [Share], accepted: [Share]) {
        self.owned = owned
        self.accepted = accepted
    }
}
