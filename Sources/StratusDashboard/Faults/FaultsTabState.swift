import StratusEngine

/// The Faults tab: the store's fault plan with how often each fault fired, and the newest
/// firings below it, polled so a server's requests show as they meet the plan.
public struct FaultsTabState: Sendable {
    public var faults: [Fault] = []
    public var events: [FaultEvent] = []
    public var list = ListCursor()
    public var loaded = false
    /// The poll running while the dashboard does (started when the tab is first opened).
    public var watchJob: Int?
    public var watchError: String?

    /// Firings kept in memory; older ones drop off.
    public static let maximumEvents = 500
    /// How often the plan is read: a server's firing shows within a second.
    public static let pollInterval = Duration.milliseconds(400)

    public init() {}

    public var selectedFault: Fault? { faults.indices.contains(list.selected) ? faults[list.selected] : nil }

    /// Takes a poll's plan and the firings since the last one.
    public mutating func receive(_ snapshot: FaultsSnapshot, visible: Int) {
        faults = snapshot.faults
        events += snapshot.events
        if events.count > Self.maximumEvents { events.removeFirst(events.count - Self.maximumEvents) }
        loaded = true
        list.clamp(count: faults.count, visible: visible)
    }
}

/// One poll of the fault plan.
public struct FaultsSnapshot: Sendable {
    public var faults: [Fault]
    /// Firings after the last one the tab holds.
    public var events: [FaultEvent]
}
