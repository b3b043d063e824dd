import StratusCloud

/// What the Changes tab's effects report back: playback pages, database changes, tokens, the
/// history line.
enum ChangesMessage: Sendable {
    /// One or more pages of a playback: `count` events (the list gets `events`, which stops
    /// growing past what the tab keeps), `pages` pages, and the token after the last.
    case page(job: Int, events: [ChangeEvent], count: Int, pages: Int, token: String, moreComing: Bool, elapsed: Double)
    case failed(job: Int, CloudKitError)
    case database(job: Int, Result<DatabaseChangesSummary, CloudKitError>)
    case token(job: Int, Result<String, CloudKitError>, database: Bool)
    /// The bookmarked tokens a playback can no longer start from.
    case bookmarksChecked(job: Int, expired: Set<String>)
    /// The zone's oldest token that still plays back, and whether the history was compacted.
    case oldestToken(ZoneID, Result<(token: String, compacted: Bool), CloudKitError>)
    case activity(ZoneID, Result<[Int], CloudKitError>)
}

struct DatabaseChangesSummary: Sendable {
    var events: [ZoneChangeEvent]
    var token: String
}
