import StratusEngine

/// The Faults tab: the store's fault plan with how often each fault fired, and the newest
/// firings below it, polled so a server's requests show as they meet the plan.
struct FaultsTabState: Sendable {
    var faults: [Fault] = []
    var events: [FaultEvent] = []
    var list = ListCursor()
    var loaded = false
    /// The poll running while the dashboard does (started when the tab is first opened).
    var watchJob: Int?
    var watchError: String?
    /// The plan's faults still able to fire, whoever they are for (the header warns of them),
    /// and the read that keeps them current on every tab.
    var armed: [Fault] = []
    var planJob: Int?

    /// Firings kept in memory; older ones drop off.
    static let maximumEvents = 500
    /// How often the plan is read: a server's firing shows within a second.
    static let pollInterval = Duration.milliseconds(400)
    /// How often the header's read of the plan runs (any tab).
    static let planInterval = Duration.seconds(1)

    init() {}

    var selectedFault: Fault? { faults.indices.contains(list.selected) ? faults[list.selected] : nil }

    /// Takes a poll's plan and the firings since the last one.
    mutating func receive(_ snapshot: FaultsSnapshot, visible: Int) {
        faults = snapshot.faults
        events += snapshot.events
        if events.count > Self.maximumEvents { events.removeFirst(events.count - Self.maximumEvents) }
        loaded = true
        list.clamp(count: faults.count, visible: visible)
    }
}

/// One poll of the fault plan.
struct FaultsSnapshot: Sendable {
    var faults: [Fault]
    /// Firings after the last one the tab holds.
    var events: [FaultEvent]
}
