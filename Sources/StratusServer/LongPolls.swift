import StratusEngine

/// The web courier's long polls in flight, and whether the server is stopping: a stopping
/// server ends them at once instead of holding its shutdown until each one's wait runs out.
final class LongPolls: Sendable {
    private struct State {
        var open = 0
        var stopping = false
    }

    private let state = LockedValue(State())

    var isStopping: Bool { state.withLock { $0.stopping } }
    /// How many polls are waiting now.
    var open: Int { state.withLock { $0.open } }

    func opened() { state.withLock { $0.open += 1 } }
    func closed() { state.withLock { $0.open -= 1 } }
    func stop() { state.withLock { $0.stopping = true } }
}
