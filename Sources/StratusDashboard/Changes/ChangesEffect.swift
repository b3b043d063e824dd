import StratusCloud
import StratusEngine

/// The Changes tab's work: playback, database changes, current tokens.
enum ChangesEffect: Sendable {
    case play(job: Int, zone: ZoneID, scope: DatabaseScope, since: String?, desiredKeys: [String]?, pageSize: Int,
              order: PlaybackOrder = .sequence)
    case database(job: Int, scope: DatabaseScope, since: String?)
    case currentToken(job: Int, zone: ZoneID?, scope: DatabaseScope)
    /// Which of a zone's bookmarked tokens its history no longer reaches (compacted past them).
    case checkBookmarks(job: Int, zone: ZoneID, scope: DatabaseScope, tokens: [String])
}
