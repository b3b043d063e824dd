import StratusEngine

/// Who the dashboard's engine calls act as, shared by the effect runner and the query runner
/// and switched by Act As (`A`, `:user`) while the dashboard runs.
public final class ActingUser: Sendable {
    private let value: LockedValue<Caller?>

    /// `caller` nil: the store's owner.
    public init(_ caller: Caller? = nil) {
        value = LockedValue(caller)
    }

    /// The caller now; nil for the store's owner.
    public var caller: Caller? { value.withLock { $0 } }

    func set(_ caller: Caller?) { value.withLock { $0 = caller } }

    /// The caller on `store` (its owner when none was chosen).
    public func caller(on store: Store) -> Caller { caller ?? .user(store.owner) }
}
