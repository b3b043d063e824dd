import Foundation
import StratusEngine
import StratusModel
import StratusTerminal
import StratusCloud

/// The Changes tab: what a playback asks for (zone or database, from which token, which fields, in
/// what order) and what it brought.
public struct ChangesTabState: Sendable {
    public enum Mode: Hashable, Sendable { case zone, database }
    public enum KeysMode: Hashable, Sendable {
        case all
        case none
        case some([String])

        public var desiredKeys: [String]? {
            switch self {
            case .all: return nil
            case .none: return []
            case .some(let keys): return keys
            }
        }

        public var label: String {
            switch self {
            case .all: return "all"
            case .none: return "none (metadata only)"
            case .some(let keys): return keys.joined(separator: ", ")
            }
        }
    }

    public var mode: Mode = .zone
    /// The start token (empty: from the beginning).
    public var since = ""
    public var keys: KeysMode = .all
    public var pageSize = CloudKitLimits.defaultChangesLimit
    /// The order each page's changes are listed in (CloudKit promises none; sync code must
    /// cope with any): as logged, parents first, children first, or shuffled.
    public var order = PlaybackOrder.sequence
    /// The oldest token of the zone that still plays back (nil: not read yet); older ones
    /// answer changeTokenExpired since the history was compacted.
    public var oldestValidToken: (zone: ZoneID, token: String, compacted: Bool)?
    /// How the zone's records' last changes spread over time (oldest first), for the sparkline.
    public var activity: (zone: ZoneID, counts: [Int])?
    public var events: [ChangeEvent] = []
    /// Events received, including any past ``maximumKept``.
    public var eventCount = 0
    public var pages = 0
    public var token: String?
    public var moreComing = false
    public var finished = false
    public var cancelled = false
    public var job: Int?
    public var elapsed: Double = 0
    public var list = ListCursor()

    public var databaseSince = ""
    public var databaseEvents: [ZoneChangeEvent] = []
    public var databaseToken: String?
    public var databaseList = ListCursor()

    /// Events kept for the list; the count goes on past it, so memory stays bounded on
    /// a playback of millions of changes.
    public static let maximumKept = 20_000

    public init() {}

    public var rate: Double { elapsed > 0 ? Double(eventCount) / elapsed : 0 }
}
