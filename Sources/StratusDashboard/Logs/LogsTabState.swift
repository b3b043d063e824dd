import StratusEngine

/// The Logs tab: the requests `stratus serve` answered on this store, newest last, polled live.
public struct LogsTabState: Sendable {
    public var entries: [RequestLogEntry] = []
    public var list = ListCursor()
    /// The poll running while the dashboard does (started when the tab is first opened).
    public var watchJob: Int?
    public var watchError: String?

    /// Entries kept in memory; older ones drop off the top.
    public static let maximumKept = 2_000
    /// How often the store's request log is read: a request shows within a second.
    public static let pollInterval = Duration.milliseconds(250)

    public init() {}

    /// Adds newly logged requests; a selection on the last row follows the newest.
    public mutating func receive(_ arrived: [RequestLogEntry], visible: Int) {
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
