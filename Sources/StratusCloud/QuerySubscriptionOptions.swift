/// `CKQuerySubscription.Options`, with CloudKit's raw values.
public struct QuerySubscriptionOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A record starts to match: it is created matching, or an update makes it match.
    public static let firesOnRecordCreation = QuerySubscriptionOptions(rawValue: 1 << 0)
    /// A record that matched before and after an update changed.
    public static let firesOnRecordUpdate = QuerySubscriptionOptions(rawValue: 1 << 1)
    /// A matching record is deleted, or an update makes it stop matching.
    public static let firesOnRecordDeletion = QuerySubscriptionOptions(rawValue: 1 << 2)
    /// The subscription is removed after it fires once.
    public static let firesOnce = QuerySubscriptionOptions(rawValue: 1 << 3)

    /// The three "fires on" options.
    public static let firesOnAnyChange: QuerySubscriptionOptions = [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion]
}
