import Foundation
import StratusEngine
import StratusModel
import StratusTerminal
import StratusCloud

/// The Changes tab: what a playback asks for (zone or database, from which token, which fields, in
/// what order) and what it brought.
struct ChangesTabState: Sendable {
    enum Mode: Hashable, Sendable { case zone, database }
    enum KeysMode: Hashable, Sendable {
        case all
        case none
        case some([String])

        var desiredKeys: [String]? {
            switch self {
            case .all: return nil
            case .none: return []
            case .some(let keys): return keys
            }
        }

        var label: String {
            switch self {
            case .all: return "all"
            case .none: return "none (metadata only)"
            case .some(let keys): return keys.joined(separator: ", ")
            }
        }
    }

    var mode: Mode = .zone
    /// The start token (empty: from the beginning).
    var since = ""
    var keys: KeysMode = .all
    var pageSize = CloudKitLimits.defaultChangesLimit
    /// The order each page's changes are listed in (CloudKit promises none; sync code must
    /// cope with any): as logged, parents first, children first, or shuffled.
    var order = PlaybackOrder.sequence
    /// The oldest token of the zone that still plays back (nil: not read yet); older ones
    /// answer changeTokenExpired since the history was compacted.
    var oldestValidToken: (zone: ZoneID, token: String, compacted: Bool)?
    /// How the zone's records' last changes spread over time (oldest first), for the sparkline.
    var activity: (zone: ZoneID, counts: [Int])?
    var events: [ChangeEvent] = []
    /// Events received, including any past ``maximumKept``.
    var eventCount = 0
    var pages = 0
    var token: String?
    var moreComing = false
    var finished = false
    var cancelled = false
    var job: Int?
    var elapsed: Double = 0
    var list = ListCursor()

    var databaseSince = ""
    var databaseEvents: [ZoneChangeEvent] = []
    var databaseToken: String?
    var databaseList = ListCursor()

    /// Events kept for the list; the count goes on past it, so memory stays bounded on
    /// a playback of millions of changes.
    static let maximumKept = 20_000

    init() {}

    var rate: Double { elapsed > 0 ? Double(eventCount) / elapsed : 0 }
}
