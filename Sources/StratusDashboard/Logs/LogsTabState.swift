import StratusEngine

/// The Logs tab: the requests `stratus serve` answered on this store, newest last, polled live.
struct LogsTabState: Sendable {
    var entries: [RequestLogEntry] = []
    var list = ListCursor()
    /// The poll running while the dashboard does (started when the tab is first opened).
    var watchJob: Int?
    var watchError: String?

    /// Entries kept in memory; older ones drop off the top.
    static let maximumKept = 2_000
    /// How often the store's request log is read: a request shows within a second.
    static let pollInterval = Duration.milliseconds(250)

    init() {}

    /// Adds newly logged requests; a selection on the last row follows the newest.
    mutating func receive(_ arrived: [RequestLogEntry], visible: Int) {
        guard !arrived.isEmpty else { return }
        let following = entries.isEmpty || list.selected >= entries.count - 1
        entries += arrived
        if entries.count > Self.maximumKept {
            let dropped = entries.count - Self.maximumKept
            entries.removeFirst(dropped)
            list.move(to: max(0, list.selected - dropped), count: entries.count, visible: visible)
        }
        if following { list.move(to: entries.count - 1, count: entries.count, visible: visible) }
    }
}
