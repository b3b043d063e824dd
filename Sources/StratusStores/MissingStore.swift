/// What opening a store does when none is at its location.
public enum MissingStore: Sendable, Equatable {
    /// Make a new, empty store there (and the folders above it): for what sets stores up.
    case create
    /// Refuse, naming the location: for everything that reads or changes an existing store, so
    /// a mistyped path never becomes a new empty store.
    case refuse
}
