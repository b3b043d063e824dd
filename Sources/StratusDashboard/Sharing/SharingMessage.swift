import StratusCloud

/// What the Sharing tab's effects report back.
enum SharingMessage: Sendable {
    /// The shares the acting user owns and accepted (`done`: what a change just did).
    case shares(job: Int, Result<SharesSnapshot, CloudKitError>, done: String?)
    /// Where a record stands with sharing, for its inspector (nil: in no share).
    case shareStatus(RecordID, String?)
}
