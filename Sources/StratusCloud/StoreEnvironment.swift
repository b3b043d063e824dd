/// The environment of a store, chosen when the store is made.
public enum StoreEnvironment: String, Sendable, CaseIterable {
    /// The schema grows on save and every field is indexed, as in CloudKit's development environment.
    case development
    /// Only declared record types and fields can be saved, and only declared indexes used.
    case production
}
