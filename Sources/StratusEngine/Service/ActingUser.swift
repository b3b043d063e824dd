import StratusCloud

/// Who a front end's calls act as, shared by everything that calls on its behalf and switched
/// while it runs (the dashboard's Act As, `A` and `:user`).
public final class ActingUser: Sendable {
    private let value: LockedValue<Caller?>

    /// `caller` nil: the container's owner (a local store's owner; a remote's signed-in user).
    public init(_ caller: Caller? = nil) {
        value = LockedValue(caller)
    }

    /// The caller now; nil for the owner.
    public var caller: Caller? { value.withLock { $0 } }

    /// Acts as `caller` from now on (nil: the owner).
    public func set(_ caller: Caller?) { value.withLock { $0 = caller } }
}
