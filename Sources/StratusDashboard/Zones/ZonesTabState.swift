import StratusCloud

/// The Zones tab: where its list stands, and the records per type of each zone looked at
/// (the bars). The zones themselves are the whole dashboard's (`DashboardState.zones`): the
/// zone picker and the header show them too.
struct ZonesTabState: Sendable {
    var list = ListCursor()
    /// Records per type of each zone looked at, by zone.
    var typeCounts: [ZoneID: [String: Int]] = [:]
    /// The zones whose counts were asked for and have not come back.
    var typeCountsPending: Set<ZoneID> = []
    /// The token each zone had when its records per type were counted: a zone whose token
    /// moved is counted again, its old bars shown until the new ones come.
    var countedTokens: [ZoneID: String] = [:]
    /// The zones watch while the tab is shown (not a job of the status line: no spinner for a
    /// background read).
    var watchJob: Int?

    /// How often the watch reads the zones.
    static let pollInterval = Duration.milliseconds(500)

    init() {}
}
